import { describe, expect, it } from "vitest";
import { fitPayload, SERVER_BODY_MAX_BYTES } from "./fit-payload";

describe("fitting a hook payload to the server's limit", () => {
  it("leaves a payload that fits as it is", () => {
    const p = {
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_response: { file: { content: "x".repeat(100_000) } },
    };
    expect(fitPayload(p)).toBe(JSON.stringify(p));
  });
  it("cuts the long texts of one that does not, keeping the short fields whole", () => {
    const p = {
      hook_event_name: "PostToolUse",
      session_id: "s",
      tool_name: "Read",
      tool_input: { file_path: "/w/big.log" },
      tool_response: { file: { content: "y".repeat(3 * 1024 * 1024) } },
    };
    const out = fitPayload(p);
    expect(Buffer.byteLength(out)).toBeLessThan(SERVER_BODY_MAX_BYTES);
    const back = JSON.parse(out) as typeof p;
    expect(back.tool_input.file_path).toBe("/w/big.log");
    expect(back.tool_response.file.content).toMatch(/^y+… \[cut by podwatch hook: 3145728 characters\]$/);
  });
});
