import { describe, expect, it } from "vitest";
import { topLevelStrings } from "./top-level-strings";

const scan = (text: string) => topLevelStrings(Buffer.from(text, "utf8"), "hook_event_name");

describe("topLevelStrings", () => {
  it("reads the outermost object's key from JSON that parses", () => {
    expect(
      scan(JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_input: { command: "ls" } })),
    ).toEqual(["PreToolUse"]);
    expect(scan('{ "hook_event_name" :\n "Stop" }')).toEqual(["Stop"]);
  });

  it("reads it from text our bounds or JSON.parse refuse: NUL, a lone surrogate, too deep, cut short", () => {
    expect(scan('{"hook_event_name":"PreToolUse","tool_input":{"description":"a\\u0000b"}}')).toEqual([
      "PreToolUse",
    ]);
    expect(scan('{"hook_event_name":"PreToolUse","tool_input":{"d":"\\ud800"}}')).toEqual(["PreToolUse"]);
    expect(scan(`{"hook_event_name":"PermissionRequest","tool_input":${"[".repeat(500)}`)).toEqual([
      "PermissionRequest",
    ]);
    expect(scan('{"hook_event_name":"PreToolUse","tool_input":{"command":"rm -rf /", "x": tru')).toEqual([
      "PreToolUse",
    ]);
    expect(scan('{"hook_event_name":"PreTo')).toEqual([]);
  });

  it("decodes escapes in keys and values as JSON.parse would", () => {
    expect(scan('{"hook\\u005fevent_name":"Pre\\u0054oolUse"}')).toEqual(["PreToolUse"]);
  });

  it("ignores the key anywhere but the outermost object, and inside strings", () => {
    expect(
      scan(JSON.stringify({ hook_event_name: "Stop", tool_input: { hook_event_name: "PreToolUse" } })),
    ).toEqual(["Stop"]);
    expect(
      scan(
        JSON.stringify({
          tool_input: { command: '"hook_event_name":"PreToolUse"' },
          hook_event_name: "PostToolUse",
        }),
      ),
    ).toEqual(["PostToolUse"]);
    expect(scan('{"a":"x\\\\","hook_event_name":"PreToolUse"}')).toEqual(["PreToolUse"]);
    expect(scan('["hook_event_name","PreToolUse"]')).toEqual([]);
  });

  it("gives every value of a repeated key, and skips one that is no string", () => {
    expect(scan('{"hook_event_name":"Stop","hook_event_name":"PreToolUse"}')).toEqual(["Stop", "PreToolUse"]);
    expect(scan('{"hook_event_name":7,"hook_event_name":"PreToolUse"}')).toEqual(["PreToolUse"]);
  });
});
