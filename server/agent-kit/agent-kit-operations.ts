// The agent kit, served by the server itself: an npm package anyone can install on an agent's
// machine with `npm install -g <server>/agent/podwatch.tgz`. Declared here for the OpenAPI document
// and the reference; served by server/http/agent-kit-routes.ts (`handwritten`): bytes, not JSON.
import { z } from "zod";
import { defineOperation } from "../operations/operation";

const tag = "Agent kit";
const TGZ = ["application/gzip"];
const kit = z.string().describe("the npm package's tarball (`package/` inside, no dependencies)");
const caching =
  "With an `ETag` (a `304` for `If-None-Match`) and `Cache-Control: no-cache`: the kit is built from the " +
  "server's own sources when first asked for, and changes when they do.";

export const agentKitOperations = {
  getAgentKit: defineOperation({
    name: "getAgentKit",
    summary:
      "The agent kit of this server's version, as an npm tarball: `npm install -g <server>/agent/podwatch.tgz` " +
      `gives the \`podwatch\` command (CLI, hooks, MCP over stdio) with Node 20 or later and nothing else. ${caching}`,
    tag,
    input: z.object({}),
    output: kit,
    guard: "public",
    http: {
      method: "GET",
      path: "/agent/podwatch.tgz",
      status: 200,
      media: { response: TGZ },
      handwritten: true,
    },
  }),
  headAgentKit: defineOperation({
    name: "headAgentKit",
    summary: "The kit's headers (its size as Content-Length, its `ETag` and version), no body.",
    tag,
    input: z.object({}),
    output: z.null(),
    guard: "public",
    http: {
      method: "HEAD",
      path: "/agent/podwatch.tgz",
      status: 200,
      media: { response: [] },
      handwritten: true,
    },
  }),
  getAgentKitVersion: defineOperation({
    name: "getAgentKitVersion",
    summary:
      "The same tarball under its version (`X-Podwatch-Kit-Version` names it), to pin in a script. Another version " +
      "is 404: a server serves only its own.",
    tag,
    input: z.object({ version: z.string().describe("the kit's version, e.g. 0.1.0") }),
    output: kit,
    guard: "public",
    http: {
      method: "GET",
      path: "/agent/podwatch-{version}.tgz",
      status: 200,
      media: { response: TGZ },
      handwritten: true,
    },
  }),
};
