// `podwatch workcell open`: a workcell from a task manifest (docs/protocol/workcells-and-evidence.md).
import type { Command } from "../command";
import { readJsonFile } from "../read-json-file";

export const workcellOpen: Command = {
  name: "workcell open",
  summary: "Open a workcell from a task manifest",
  args: "<manifest.json>",
  arity: [1, 1],
  run: async ({ positionals: [file], agent }) => {
    const r = await agent().openWorkcell(readJsonFile(file!) as never);
    return { text: `workcell ${r.workcellId} opened as #${r.event.seq}`, json: r };
  },
};
