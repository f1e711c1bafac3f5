import { z } from "zod";
import { EVENT_SCHEMAS } from "../domain/events/event-schemas";

let cached: object | null = null;

/** JSON Schema (draft 2020-12) of every event type, as agents send them. */
export function eventJsonSchemas() {
  cached ??= {
    $comment: "podwatch tape events: POST /api/v1/pods/{podId}/events takes one of these, or { events: [...] }",
    types: Object.fromEntries(
      EVENT_SCHEMAS.map((s) => [s.shape.type.value, z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "draft-2020-12" })]),
    ),
  };
  return cached;
}
