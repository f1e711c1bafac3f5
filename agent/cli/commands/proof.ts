// `podwatch proof submit`: a workcell's proof.json (docs/protocol/workcells-and-evidence.md#the-proof).
import type { Command } from "../command";
import { readJsonFile } from "../read-json-file";

export const proofSubmit: Command = {
  name: "proof submit",
  summary: "Submit a workcell's proof.json",
  args: "<proof.json>",
  arity: [1, 1],
  run: async ({ positionals: [file], agent }) => {
    const r = await agent().submitProof(readJsonFile(file!) as never);
    return { text: `proof for ${r.workcellId} recorded as #${r.event.seq}`, json: r };
  },
};
