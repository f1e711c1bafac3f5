import { describe, expect, it } from "vitest";
import { EVENT_BOUNDS } from "../domain/events/event-bounds";
import { POD_BOUNDS } from "../domain/pod-bounds";
import { SAMPLE_BODIES } from "../testing/sample-events";
import { eventJsonSchemas } from "./event-json-schema";

describe("the published JSON Schema", () => {
  it("states the event body bounds, machine-readable and in words, on every type", () => {
    const s = eventJsonSchemas();
    expect(s["x-podwatch-bounds"]).toEqual(EVENT_BOUNDS);
    for (const [type, schema] of Object.entries(s.types) as [
      string,
      { "x-podwatch-bounds": unknown; properties: { body: { description: string } } },
    ][]) {
      expect(schema["x-podwatch-bounds"], type).toEqual(EVENT_BOUNDS);
      expect(schema.properties.body.description, type).toContain(`${EVENT_BOUNDS.maxDepth} levels`);
      expect(schema.properties.body.description, type).toContain(`${EVENT_BOUNDS.maxBytes} bytes`);
    }
  });

  it("states what a pod may accumulate: the pod's bounds, and a task's size limits where a task is written", () => {
    const s = eventJsonSchemas();
    expect(s["x-podwatch-pod-bounds"]).toEqual(POD_BOUNDS);
    expect(s.description).toContain(`at most ${POD_BOUNDS.tasks} tasks`);
    type Props = Record<string, Record<string, unknown>>;
    const body = (type: keyof typeof s.types) =>
      (s.types[type].properties as Props).body!.properties as Props;
    const planTasks = (body("plan.imported").plan!.properties as Props).tasks!;
    expect(planTasks.maxItems).toBe(POD_BOUNDS.tasks);
    const planTask = (planTasks.items as { properties: Props }).properties;
    for (const task of [planTask, body("task.added"), body("task.updated")]) {
      expect(task.metadata!["x-podwatch-max-bytes"]).toBe(POD_BOUNDS.taskMetadataBytes);
      expect(task.metadata!.description).toContain(`${POD_BOUNDS.taskMetadataBytes} bytes`);
    }
    for (const task of [planTask, body("task.added")])
      expect(task.description!["x-podwatch-max-bytes"]).toBe(POD_BOUNDS.taskDescriptionBytes);
  });

  it("has one schema per event type, under its own type", () => {
    const { types } = eventJsonSchemas();
    expect(Object.keys(types).sort()).toEqual(Object.keys(SAMPLE_BODIES).sort());
    for (const [type, schema] of Object.entries(types))
      expect((schema.properties as { type: { const: string } }).type.const).toBe(type);
  });
});
