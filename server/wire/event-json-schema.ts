import { z } from "zod";
import { EVENT_BOUNDS } from "../domain/events/event-bounds";
import { EVENT_SCHEMAS, type EventType } from "../domain/events/event-schemas";

type JsonSchema = Record<string, unknown>;
/** One JSON Schema per event type, keyed by it: an event type has its schema as soon as it is in the union. */
export type EventJsonSchemas = { [T in EventType]: JsonSchema };

/** The union and this record are made from the same list (EVENT_SCHEMAS), so no type is missing and none is extra. */
const byEventType = (f: (schema: (typeof EVENT_SCHEMAS)[number]) => JsonSchema) =>
  Object.fromEntries(EVENT_SCHEMAS.map((s) => [s.shape.type.value, f(s)])) as EventJsonSchemas;

const { maxDepth, maxBytes, maxEntries } = EVENT_BOUNDS;
/** JSON Schema cannot express these totals, so they are stated in words and as an `x-` keyword. */
const BOUNDS = `Every event body: at most ${maxDepth} levels of nested objects and arrays (the body itself is level 1), at most ${maxBytes} bytes as UTF-8 JSON, and at most ${maxEntries} entries (object keys plus array items, over the whole body). A body beyond any of them is refused with 400, naming the limit and the path.`;

let cached: ReturnType<typeof buildSchemas> | undefined;

/** JSON Schema (draft 2020-12) of every event type, as agents send them. */
export const eventJsonSchemas = () => (cached ??= buildSchemas());

function buildSchemas() {
  return {
    $comment: "podwatch tape events: POST /api/v1/pods/{podId}/events takes one of these, or { events: [...] }",
    description: BOUNDS,
    "x-podwatch-bounds": EVENT_BOUNDS,
    types: byEventType((s) => withBounds(z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "draft-2020-12" }))),
  };
}

function withBounds(schema: JsonSchema): JsonSchema {
  const props = schema.properties as Record<string, Record<string, unknown>>;
  props.body = { ...props.body, description: BOUNDS };
  return { ...schema, "x-podwatch-bounds": EVENT_BOUNDS };
}
