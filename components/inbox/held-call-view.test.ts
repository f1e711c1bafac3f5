import { describe, expect, it } from "vitest";
import { deadlineSentence, heldInput } from "./held-call-view";

describe("a held tool call on its card", () => {
  it("shows a Bash command on its own and the whole input pretty", () => {
    expect(heldInput(JSON.stringify({ command: "git push origin main", description: "Push" }))).toEqual({ command: "git push origin main", pretty: '{\n  "command": "git push origin main",\n  "description": "Push"\n}' });
    expect(heldInput(JSON.stringify({ file_path: "/w/a.ts" }))).toEqual({ command: null, pretty: '{\n  "file_path": "/w/a.ts"\n}' });
  });
  it("shows an input cut mid-JSON as it came", () => {
    expect(heldInput('{"command": "echo aaaa')).toEqual({ command: null, pretty: '{"command": "echo aaaa' });
    expect(heldInput(undefined)).toEqual({ command: null, pretty: "" });
  });
  it("says what the deadline decides and when", () => {
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    expect(deadlineSentence({ at: "2026-11-22T14:05:00.000Z", answer: "deny" }, hhmm)).toBe("Denied automatically at 14:05 unless someone answers");
    expect(deadlineSentence({ at: "2026-11-22T09:30:00.000Z", answer: "allow" }, hhmm)).toBe("Allowed automatically at 09:30 unless someone answers");
    expect(deadlineSentence(undefined, hhmm)).toBeNull();
  });
});
