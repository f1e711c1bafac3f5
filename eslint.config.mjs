// typescript-eslint everywhere; Next's rules and React's hook rules where React code lives
// (app/ and components/, including any subfolders the web UI is grouped into); the layer rules
// and no import cycles everywhere (eslint.layers.mjs).
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { layers } from "./eslint.layers.mjs";

const reactFiles = ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"];

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      "data/**",
      "test-results/**",
      "playwright-report/**",
      "bench-results/**",
      "**/db/generated/**",
      "prisma/**/generated/**",
      "next-env.d.ts",
    ],
  },
  tseslint.configs.recommended,
  {
    rules: {
      // A `_` name is a deliberate leftover: a field dropped from a rest spread
      // (`const { via: _via, ...rest } = x`) or a parameter kept for its position.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Tests read JSON response bodies as `any` and poke at them; typing each body would only
    // restate the wire schemas the server already checks.
    files: ["**/*.test.ts", "**/*.test-d.ts", "**/testing/**/*.ts", "e2e/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  // core-web-vitals is recommended with a few warnings raised to errors.
  { files: reactFiles, ...nextPlugin.configs["core-web-vitals"] },
  { files: reactFiles, ...reactHooks.configs.flat.recommended },
  // The layers and no cycles (ARCHITECTURE.md, "Three audiences, one wire").
  ...layers,
);
