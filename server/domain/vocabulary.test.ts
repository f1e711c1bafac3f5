import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EVENT_SCHEMAS } from "./events/event-schemas";
import { EVENT_TYPES } from "./vocabulary";

describe("the vocabulary", () => {
  it("lists each event type once, in the order of the schemas", () => {
    expect([...EVENT_TYPES]).toEqual(EVENT_SCHEMAS.map((s) => s.shape.type.value));
  });
  it("imports nothing, so the browser can take it without zod or the schemas", () => {
    const source = readFileSync(new URL("./vocabulary.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/^\s*(import|export .* from)\b/m);
  });
});
