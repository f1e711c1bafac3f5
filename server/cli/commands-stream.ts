// Commands that move bytes or stream: evidence push, tail, and the MCP server.
import { pushEvidence } from "../sdk/evidence";
import { UsageError } from "../sdk/errors";
import type { TapeEvent } from "../wire/events";
import { keyValues, list, str, type Command } from "./command";

const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

export const streamCommands: Command[] = [
  {
    name: "evidence push",
    summary: "Hash a folder, upload the files the server lacks, post the evidence.bundle",
    args: "<DIR>",
    arity: [1, 1],
    options: {
      id: { type: "string", description: "the bundle id (default: generated)", value: "ID" },
      commit: { type: "string", description: "the commit it was made at (default: git rev-parse HEAD in DIR)", value: "SHA" },
      tool: { type: "string", multiple: true, description: "a tool version for the environment snapshot (repeatable)", value: "NAME=VERSION" },
      task: { type: "string", description: "the task it is evidence for (it must exist; the bundle is linked to it)", value: "ID" },
      run: { type: "string", description: "the run it came from", value: "ID" },
    },
    examples: ["podwatch evidence push ./evidence --task task_002   # commands.jsonl in DIR is the transcript"],
    run: async ({ values: v, positionals: [dir], agent, out, signal }) => {
      const tools = keyValues(list(v.tool), "tool", false) as Record<string, string>;
      const r = await pushEvidence(agent().client, dir!, {
        bundleId: str(v.id),
        commit: str(v.commit),
        tools,
        taskId: str(v.task),
        runId: str(v.run),
        signal,
        onProgress: (p) => {
          if (p.phase === "hashing") return out.progress(`hashing ${p.files}/${p.totalFiles} files`, p.files === p.totalFiles);
          const width = 24;
          const frac = p.totalBytes ? p.bytes / p.totalBytes : 1;
          const bar = "#".repeat(Math.round(frac * width)).padEnd(width, ".");
          out.progress(`uploading [${bar}] ${p.files}/${p.totalFiles} files, ${mb(p.bytes)} / ${mb(p.totalBytes)}`, p.files === p.totalFiles);
        },
      });
      const text = `evidence ${r.bundleId}: ${r.artifacts} files, ${r.uploaded} uploaded (${mb(r.uploadedBytes)}), ${r.skipped} already there; recorded as #${r.event.seq}`;
      return { text, json: r };
    },
  },
  {
    name: "tail",
    summary: "Print the tape, then follow it live (Ctrl-C stops)",
    options: {
      after: { type: "string", description: "start after this seq (default: the last 10 events)", value: "SEQ" },
      once: { type: "boolean", description: "print what is there and stop" },
      type: { type: "string", multiple: true, description: "only these event types (repeatable)", value: "TYPE" },
    },
    run: async ({ values: v, agent, out, signal }) => {
      const { client } = agent();
      let after = str(v.after) === undefined ? undefined : Number(v.after);
      if (after !== undefined && !(Number.isInteger(after) && after >= 0)) throw new UsageError("--after takes a seq (0 or more)");
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
  },
  {
    name: "mcp",
    summary: "Serve the pod's tools to an MCP client over stdio",
    examples: ['MCP client config: { "command": "podwatch", "args": ["mcp"], "env": { "PODWATCH_URL": "…", "PODWATCH_TOKEN": "…" } }'],
    run: async ({ agent, signal }) => {
      const { serveMcp } = await import("../mcp/mcp-server");
      await serveMcp(agent(), signal);
      return { text: "", json: undefined };
    },
  },
];

/** One line per event: `#12 10:31:02 implementer-1 checkpoint  Completed: …`. */
function formatEvent(e: TapeEvent): string {
  const time = e.receivedAt.slice(11, 19);
  return `#${e.seq} ${time} ${e.actor} ${e.type}  ${summarize(e.body as Record<string, unknown>)}`.trimEnd();
}

function summarize(b: Record<string, unknown>): string {
  const plan = b.plan as { tasks?: unknown[] } | undefined;
  if (Array.isArray(plan?.tasks)) return `${plan.tasks.length} tasks`;
  if (Array.isArray(b.completed)) return [["done", b.completed], ["next", b.next], ["blocked", b.blocked]].filter(([, l]) => (l as string[]).length).map(([k, l]) => `${k}: ${(l as string[]).join("; ")}`).join(" | ");
  for (const k of ["question", "answer", "text", "reason", "rationale", "description", "comments", "scope"]) if (typeof b[k] === "string" && b[k]) return oneLine(b[k] as string);
  const id = ["taskId", "runId", "bundleId", "escalationId", "jobId", "to"].find((k) => typeof b[k] === "string");
  return id ? `${id} ${b[id]}${typeof b.status === "string" ? ` → ${b.status}` : ""}${typeof b.verdict === "string" ? ` ${b.verdict}` : ""}` : "";
}

const oneLine = (s: string) => (s.length > 160 ? `${s.slice(0, 157)}…` : s).replace(/\s+/g, " ");
