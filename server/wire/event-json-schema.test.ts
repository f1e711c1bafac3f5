import { describe, expect, it } from "vitest";
import { EVENT_BOUNDS } from "../domain/events/event-bounds";
import { eventJsonSchemas } from "./event-json-schema";

describe("the published JSON Schema", () => {
  it("states the event body bounds, machine-readable and in words, on every type", () => {
    const s = eventJsonSchemas() as { "x-podwatch-bounds": unknown; types: Record<string, { "x-podwatch-bounds": unknown; properties: { body: { description: string } } }> };
    expect(s["x-podwatch-bounds"]).toEqual(EVENT_BOUNDS);
    for (const [type, schema] of Object.entries(s.types)) {
      expect(schema["x-podwatch-bounds"], type).toEqual(EVENT_BOUNDS);
      expect(schema.properties.body.description, type).toContain(`${EVENT_BOUNDS.maxDepth} levels`);
      expect(schema.properties.body.description, type).toContain(`${EVENT_BOUNDS.maxBytes} bytes`);
    }
  });
});
