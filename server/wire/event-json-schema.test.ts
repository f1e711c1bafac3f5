import { describe, expect, it } from "vitest";
import { EVENT_BOUNDS } from "../domain/events/event-bounds";
import { SAMPLE_BODIES } from "../testing/sample-events";
import { eventJsonSchemas } from "./event-json-schema";

describe("the published JSON Schema", () => {
  it("states the event body bounds, machine-readable and in words, on every type", () => {
    const s = eventJsonSchemas();
    expect(s["x-podwatch-bounds"]).toEqual(EVENT_BOUNDS);
    for (const [type, schema] of Object.entries(s.types) as [string, { "x-podwatch-bounds": unknown; properties: { body: { description: string } } }][]) {
      expect(schema["x-podwatch-bounds"], type).toEqual(EVENT_BOUNDS);
      expect(schema.properties.body.description, type).toContain(`${EVENT_BOUNDS.maxDepth} levels`);
      expect(schema.properties.body.description, type).toContain(`${EVENT_BOUNDS.maxBytes} bytes`);
    }
  });

  it("has one schema per event type, under its own type", () => {
    const { types } = eventJsonSchemas();
    expect(Object.keys(types).sort()).toEqual(Object.keys(SAMPLE_BODIES).sort());
    for (const [type, schema] of Object.entries(types)) expect((schema.properties as { type: { const: string } }).type.const).toBe(type);
  });
});
