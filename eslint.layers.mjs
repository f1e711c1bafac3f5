// The layers of ARCHITECTURE.md, checked: each part of the repository is an element type, and each
// type may import only the types below it (boundaries/dependencies; `import type` counts too).
// Cycles are refused across the whole code (import-x/no-cycle; a type-only import is erased at
// build and is not counted). Tests and their kits (testing/) may import anything; nothing else
// may import them.
import boundaries from "eslint-plugin-boundaries";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

/** The use-cases and read models, with the doors for agents that write no code. */
const USE_CASES =
  "access,agent-kit,blobs,budgets,cluster,deadlines,gates,history,hooks,jobs,mcp,notify,now,operations,otlp,outbox,pods,signals,steer,tape,webhooks";

// First match wins: the rooms first, then what is left of server/ (its root files) last.
const elements = [
  { type: "domain", pattern: "server/domain", partialMatch: false },
  { type: "wire", pattern: "server/wire", partialMatch: false },
  { type: "shared", pattern: "server/shared", partialMatch: false },
  { type: "store", pattern: "server/db", partialMatch: false },
  { type: "use-case", pattern: `server/{${USE_CASES}}`, partialMatch: false },
  { type: "adapter", pattern: "server/{http,web,realtime}", partialMatch: false },
  { type: "ui", pattern: "{app,components}", partialMatch: false },
  { type: "testing", pattern: "server/testing", partialMatch: false },
  { type: "root", pattern: "server", partialMatch: false },
  { type: "agent", pattern: "agent", partialMatch: false },
];

const to = (...types) => ({ to: { element: { types: { anyOf: types } } } });
const BELOW_ADAPTERS = ["domain", "wire", "shared", "store", "use-case"];

export const testFiles = ["**/*.test.ts", "**/*.test-d.ts", "**/testing/**", "e2e/**"];

export const layers = [
  {
    files: ["**/*.{ts,tsx,mjs}"],
    ignores: testFiles,
    plugins: { boundaries, "import-x": importX },
    settings: {
      "boundaries/elements": elements,
      "boundaries/dependency-nodes": ["import", "export", "dynamic-import"],
      // boundaries resolves through eslint-module-utils' settings, import-x through its own.
      "import/resolver": { typescript: { alwaysTryTypes: true } },
      "import-x/extensions": importX.flatConfigs.typescript.settings["import-x/extensions"],
      "import-x/parsers": importX.flatConfigs.typescript.settings["import-x/parsers"],
      "import-x/resolver-next": [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "disallow",
          policies: [
            // The domain is pure: it imports nothing outside itself (but zod and its few packages).
            { from: { element: { type: "domain" } }, allow: to("domain") },
            // The wire: the domain's types and schemas as the three audiences see them.
            { from: { element: { type: "wire" } }, allow: to("domain", "wire") },
            // Helpers every door and use-case shares (reading JSON, the client's IP, the SSRF guard).
            { from: { element: { type: "shared" } }, allow: to("domain", "wire", "shared") },
            { from: { element: { type: "store" } }, allow: to("domain", "wire", "shared", "store") },
            // Use-cases never import an adapter. They see the process's context and configuration
            // as the server's root files declare them.
            { from: { element: { type: "use-case" } }, allow: to(...BELOW_ADAPTERS) },
            {
              from: { element: { type: "use-case" } },
              allow: {
                to: { element: { type: "root", fileInternalPath: "{app-context,config,data-dir}.ts" } },
              },
            },
            // The one exception, on purpose: remote MCP runs the agent kit's own tools over loopback.
            { from: { element: { type: "use-case", path: "server/mcp" } }, allow: to("agent") },
            // Adapters (HTTP, server actions, sockets) call use-cases; the UI calls server actions.
            { from: { element: { type: "adapter" } }, allow: to(...BELOW_ADAPTERS, "adapter", "root") },
            {
              from: { element: { type: "ui" } },
              allow: to(...BELOW_ADAPTERS, "adapter", "ui", "root", "agent"),
            },
            // The root files wire the process together: anything but the test kit.
            { from: { element: { type: "root" } }, allow: to(...BELOW_ADAPTERS, "adapter", "root", "agent") },
            {
              from: { element: { type: "testing" } },
              allow: to(...BELOW_ADAPTERS, "adapter", "ui", "root", "agent", "testing"),
            },
            // The agent kit speaks only the wire.
            { from: { element: { type: "agent" } }, allow: to("wire", "agent") },
          ],
        },
      ],
      // Cycles among our own files: a package in node_modules is not walked (it cannot import us).
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
];
