// `podwatch evidence push`: hash a folder, upload what the server lacks, post the bundle.
import { pushEvidence } from "../../sdk/evidence";
import { keyValues, list, str, type Command } from "../command";

const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

export const evidencePush: Command = {
  name: "evidence push",
  summary: "Hash a folder, upload the files the server lacks, post the evidence.bundle",
  args: "<DIR>",
  arity: [1, 1],
  options: {
    id: { type: "string", description: "the bundle id (default: generated)", value: "ID" },
    commit: {
      type: "string",
      description: "the commit it was made at (default: git rev-parse HEAD in DIR)",
      value: "SHA",
    },
    tool: {
      type: "string",
      multiple: true,
      description: "a tool version for the environment snapshot (repeatable)",
      value: "NAME=VERSION",
    },
    task: {
      type: "string",
      description: "the task it is evidence for (it must exist; the bundle is linked to it)",
      value: "ID",
    },
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
        if (p.phase === "hashing")
          return out.progress(`hashing ${p.files}/${p.totalFiles} files`, p.files === p.totalFiles);
        const width = 24;
        const frac = p.totalBytes ? p.bytes / p.totalBytes : 1;
        const bar = "#".repeat(Math.round(frac * width)).padEnd(width, ".");
        out.progress(
          `uploading [${bar}] ${p.files}/${p.totalFiles} files, ${mb(p.bytes)} / ${mb(p.totalBytes)}`,
          p.files === p.totalFiles,
        );
      },
    });
    const text = `evidence ${r.bundleId}: ${r.artifacts} files, ${r.uploaded} uploaded (${mb(r.uploadedBytes)}), ${r.skipped} already there; recorded as #${r.event.seq}`;
    return { text, json: r };
  },
};
