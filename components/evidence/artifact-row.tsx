"use client";
import { useState } from "react";
import { td } from "./use-event-at";

type Artifact = { path: string; sha256: string; size: number };

/** An artifact of a bundle: verify that the uploaded blob still hashes to it; show a patch as a diff. */
export function ArtifactRow({ podId, artifact: a }: { podId: string; artifact: Artifact }) {
  const [state, setState] = useState<string | null>(null);
  const [diff, setDiff] = useState<string | null>(null);
  // Blobs are read through the pod whose evidence names them.
  const blobUrl = `/api/v1/blobs/${a.sha256}`;
  const inPod = `?pod=${encodeURIComponent(podId)}`;
  const verify = async () => {
    setState("checking…");
    const res = await fetch(`${blobUrl}/verify${inPod}`);
    if (res.status === 404) return setState("not uploaded");
    const r = (await res.json()) as { ok: boolean; size: number };
    setState(
      r.ok && r.size === a.size
        ? "verified"
        : r.ok
          ? `verified, but ${r.size} B (manifest says ${a.size})`
          : "corrupted",
    );
  };
  const isPatch = /\.(patch|diff)$/.test(a.path);
  const showDiff = async () => {
    const res = await fetch(`${blobUrl}${inPod}`);
    setDiff(res.ok ? await res.text() : "The patch was not uploaded.");
  };
  return (
    <>
      <tr>
        <td className={`${td} font-mono break-all`}>{a.path}</td>
        <td className={`${td} font-mono`} title={a.sha256}>
          {a.sha256.slice(0, 16)}…
        </td>
        <td className={`${td} tabular-nums`}>{a.size.toLocaleString()} B</td>
        <td className={td}>
          <button
            onClick={verify}
            className="rounded border border-zinc-300 px-1.5 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            Verify
          </button>
          {isPatch && (
            <button
              onClick={showDiff}
              className="ml-1 rounded border border-zinc-300 px-1.5 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
            >
              Diff
            </button>
          )}
          {state && (
            <span
              className={`ml-1 ${state === "verified" ? "text-emerald-700 dark:text-emerald-400" : state === "checking…" ? "text-zinc-500" : "text-red-700 dark:text-red-400"}`}
              data-testid="artifact-state"
            >
              {state}
            </span>
          )}
        </td>
      </tr>
      {diff !== null && (
        <tr>
          <td colSpan={4}>
            <pre
              className="max-h-96 overflow-auto rounded bg-zinc-50 p-2 font-mono text-[11px] dark:bg-zinc-950"
              data-testid="diff"
            >
              {diff.split("\n").map((line, i) => (
                <div
                  key={i}
                  className={
                    line.startsWith("+") && !line.startsWith("+++")
                      ? "bg-emerald-50 text-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-300"
                      : line.startsWith("-") && !line.startsWith("---")
                        ? "bg-red-50 text-red-800 dark:bg-red-950/50 dark:text-red-300"
                        : line.startsWith("@@")
                          ? "text-sky-700 dark:text-sky-400"
                          : ""
                  }
                >
                  {line || " "}
                </div>
              ))}
            </pre>
          </td>
        </tr>
      )}
    </>
  );
}
