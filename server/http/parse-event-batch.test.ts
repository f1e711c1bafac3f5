// The batch parsed event by event answers exactly what the batch schema answers whole.
import { describe, expect, it } from "vitest";
import { AppError } from "../domain/errors";
import { SAMPLE_BODIES } from "../testing/sample-events";
import { ZEventBatch, type EventType } from "../wire/events";
import { parseWith } from "./json";
import { parseEventBatch } from "./parse-event-batch";

const samples = Object.entries(SAMPLE_BODIES).map(([type, s]) => ({ type: type as EventType, ...s }));

/** What each way gives: the events, or the error's status, message and issues. */
async function outcome(parse: () => unknown) {
  try {
    return { events: await parse() };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { status: e.status, message: e.message, issues: e.issues };
  }
}

describe("parseEventBatch", () => {
  const bodies: [string, unknown][] = [
    ["every event type", { events: samples }],
    [
      "a thousand notes",
      {
        events: Array.from({ length: 1000 }, (_, i) => ({
          type: "note",
          actor: "a",
          body: { kind: "STATUS", text: `n${i}` },
        })),
      },
    ],
    [
      "bad events among good ones",
      { events: [samples[0], { type: "note", actor: "a", body: {} }, samples[1], { type: "nope" }, 7] },
    ],
    ["no events", { events: [] }],
    ["too many", { events: Array.from({ length: 1001 }, () => samples[0]) }],
    ["events not a list", { events: "x" }],
  ];
  it.each(bodies)("%s: the same as ZEventBatch", async (_, body) => {
    expect(await outcome(() => parseEventBatch(body))).toEqual(
      await outcome(() => parseWith(ZEventBatch, body).events),
    );
  });
});
