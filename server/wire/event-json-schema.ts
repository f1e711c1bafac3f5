import { z } from "zod";
import { EVENT_BOUNDS } from "../domain/events/event-bounds";
import { EVENT_SCHEMAS, EVENT_TYPES, type EventType } from "../domain/events/event-schemas";
import { POD_BOUNDS } from "../domain/pod-bounds";

type JsonSchema = Record<string, unknown>;
/** One JSON Schema per event type, keyed by it: an event type has its schema as soon as it is in the union. */
export type EventJsonSchemas = { [T in EventType]: JsonSchema };

/** The union and this record are made from the same list (EVENT_SCHEMAS), so no type is missing and none is extra. */
const byEventType = (f: (schema: (typeof EVENT_SCHEMAS)[number]) => JsonSchema) =>
  Object.fromEntries(EVENT_SCHEMAS.map((s) => [s.shape.type.value, f(s)])) as EventJsonSchemas;

const { maxDepth, maxBytes, maxEntries } = EVENT_BOUNDS;
/** JSON Schema cannot express these totals, so they are stated in words and as an `x-` keyword. */
const BOUNDS = `Every event body: at most ${maxDepth} levels of nested objects and arrays (the body itself is level 1), at most ${maxBytes} bytes as UTF-8 JSON, and at most ${maxEntries} entries (object keys plus array items, over the whole body). A body beyond any of them is refused with 400, naming the limit and the path.`;

/** What a pod keeps from all its events (the README's "Limits"): an event that would cross one gets a 422. */
const POD = `What one pod accumulates is bounded too: an event that would cross one of "x-podwatch-pod-bounds" is refused with 422 bound_exceeded, naming the bound, and nothing of its request is written. Among them: at most ${POD_BOUNDS.tasks} tasks, a task's description at most ${POD_BOUNDS.taskDescriptionBytes} bytes and its metadata at most ${POD_BOUNDS.taskMetadataBytes} bytes as canonical JSON.`;

let cached: ReturnType<typeof buildSchemas> | undefined;

/**
 * What GET /api/v1/schema answers: the bounds every event body and every pod keeps, and under
 * `types` one JSON Schema (draft 2020-12) per event type, every type and no other. The schemas
 * themselves are JSON Schema documents, described here only as objects.
 */
export const ZEventJsonSchemas = z.object({
  $comment: z.string(),
  description: z.string(),
  "x-podwatch-bounds": z.record(z.string(), z.number()),
  "x-podwatch-pod-bounds": z.record(z.string(), z.number()),
  types: z.record(
    z.enum(EVENT_TYPES),
    z.record(z.string(), z.unknown()).describe("The event type's JSON Schema (draft 2020-12)"),
  ),
});

/** JSON Schema (draft 2020-12) of every event type, as agents send them. */
export const eventJsonSchemas = () => (cached ??= buildSchemas());

function buildSchemas() {
  return {
    $comment:
      "podwatch tape events: POST /api/v1/pods/{podId}/events takes one of these, or { events: [...] }",
    description: `${BOUNDS} ${POD}`,
    "x-podwatch-bounds": EVENT_BOUNDS,
    "x-podwatch-pod-bounds": POD_BOUNDS,
    types: byEventType((s) =>
      withBounds(z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "draft-2020-12" })),
    ),
  };
}

function withBounds(schema: JsonSchema): JsonSchema {
  const props = schema.properties as Record<string, Record<string, unknown>>;
  props.body = { ...props.body, description: BOUNDS };
  return { ...schema, "x-podwatch-bounds": EVENT_BOUNDS };
}
