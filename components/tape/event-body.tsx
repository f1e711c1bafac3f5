"use client";
import { describeEvent } from "./describe-event";
// A readable rendering of an event's body. Everything is rendered as text
// nodes: agent-supplied content is never interpreted as HTML.

type Checkpoint = { completed: string[]; next: string[]; blocked: string[] };
type Note = { kind: string; text: string; [k: string]: unknown };

const SECTIONS: { key: keyof Checkpoint; label: string; tone: string }[] = [
  { key: "completed", label: "Completed", tone: "text-emerald-700 dark:text-emerald-400" },
  { key: "next", label: "Next", tone: "text-sky-700 dark:text-sky-400" },
  { key: "blocked", label: "Blocked", tone: "text-amber-700 dark:text-amber-400" },
];

export function EventBody({ type, body }: { type: string; body: unknown }) {
  if (type === "checkpoint") {
    const cp = body as Checkpoint;
    return (
      <div className="grid gap-1 sm:grid-cols-3">
        {SECTIONS.map(({ key, label, tone }) => (
          <div key={key} className="min-w-0">
            <p className={`text-[11px] font-semibold uppercase tracking-wide ${tone}`}>{label}</p>
            {cp[key]?.length ? (
              <ul className="list-disc pl-4 text-sm">
                {cp[key].map((line, i) => (
                  <li key={i} className="break-words">
                    {line}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-zinc-400">—</p>
            )}
          </div>
        ))}
      </div>
    );
  }
  if (type === "note") {
    const note = body as Note;
    const extra = Object.entries(note).filter(([k]) => k !== "kind" && k !== "text");
    return (
      <div className="space-y-1">
        <p className="text-sm break-words">
          <span className="mr-2 rounded bg-violet-100 px-1.5 py-0.5 font-mono text-[11px] text-violet-800 dark:bg-violet-950 dark:text-violet-300">
            {note.kind}
          </span>
          {note.text}
        </p>
        {extra.length > 0 && (
          <dl className="flex flex-wrap gap-x-4 text-xs text-zinc-500">
            {extra.map(([k, v]) => (
              <div key={k} className="flex gap-1">
                <dt className="font-medium">{k}:</dt>
                <dd className="break-all">{typeof v === "string" ? v : JSON.stringify(v)}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
    );
  }
  const summary = describeEvent(type, body);
  return (
    <div className="space-y-1">
      {summary && <p className="text-sm break-words">{summary}</p>}
      <details className="text-xs text-zinc-500">
        <summary className="cursor-pointer select-none hover:text-zinc-700 dark:hover:text-zinc-300">
          Details
        </summary>
        <pre className="mt-1 max-h-80 overflow-auto rounded bg-zinc-50 p-2 font-mono text-[11px] text-zinc-700 dark:bg-zinc-950 dark:text-zinc-300">
          {JSON.stringify(body, null, 2)}
        </pre>
      </details>
    </div>
  );
}
