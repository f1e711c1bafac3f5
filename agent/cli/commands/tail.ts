// `podwatch tail`: the tape, printed one line per event, then followed live.
import type { TapeEvent } from "../../../server/wire/events";
import { UsageError } from "../../sdk/errors";
import { list, str, type Command } from "../command";

export const tail: Command = {
  name: "tail",
  summary: "Print the tape, then follow it live (Ctrl-C stops)",
  options: {
    after: {
      type: "string",
      description: "start after this seq (default: the last 10 events)",
      value: "SEQ",
    },
    once: { type: "boolean", description: "print what is there and stop" },
    type: {
      type: "string",
      multiple: true,
      description: "only these event types (repeatable)",
      value: "TYPE",
    },
  },
  run: async ({ values: v, agent, out, signal }) => {
    const { client } = agent();
    let after = str(v.after) === undefined ? undefined : Number(v.after);
    if (after !== undefined && !(Number.isInteger(after) && after >= 0))
      throw new UsageError("--after takes a seq (0 or more)");
    if (after === undefined) {
      const pod = await client.request<{ eventCount: number }>("GET", await client.podPath());
      after = Math.max(0, pod.eventCount - 10);
    }
    const types = new Set(list(v.type));
    const show = (e: TapeEvent) => (!types.size || types.has(e.type)) && out.line(formatEvent(e), e);
    if (v.once) {
      for (;;) {
        const page = await client.readEvents(after, { limit: 500 });
        page.events.forEach(show);
        if (page.events.length < 500) return { text: "", json: undefined };
        after = page.nextAfter;
      }
    }
    for await (const e of client.follow(after, { signal })) show(e);
    return { text: "", json: undefined };
  },
};

/** One line per event: `#12 10:31:02 implementer-1 checkpoint  Completed: …`. */
function formatEvent(e: TapeEvent): string {
  const time = e.receivedAt.slice(11, 19);
  return `#${e.seq} ${time} ${e.actor} ${e.type}  ${summarize(e.body as Record<string, unknown>)}`.trimEnd();
}

function summarize(b: Record<string, unknown>): string {
  const plan = b.plan as { tasks?: unknown[] } | undefined;
  if (Array.isArray(plan?.tasks)) return `${plan.tasks.length} tasks`;
  if (Array.isArray(b.completed))
    return [
      ["done", b.completed],
      ["next", b.next],
      ["blocked", b.blocked],
    ]
      .filter(([, l]) => (l as string[]).length)
      .map(([k, l]) => `${k}: ${(l as string[]).join("; ")}`)
      .join(" | ");
  for (const k of ["question", "answer", "text", "reason", "rationale", "description", "comments", "scope"])
    if (typeof b[k] === "string" && b[k]) return oneLine(b[k] as string);
  const id = ["taskId", "runId", "bundleId", "escalationId", "jobId", "to"].find(
    (k) => typeof b[k] === "string",
  );
  return id
    ? `${id} ${b[id]}${typeof b.status === "string" ? ` → ${b.status}` : ""}${typeof b.verdict === "string" ? ` ${b.verdict}` : ""}`
    : "";
}

const oneLine = (s: string) => (s.length > 160 ? `${s.slice(0, 157)}…` : s).replace(/\s+/g, " ");
