// `podwatch note`: a typed note (docs/protocol/runs-and-notes.md#note-kinds).
import { NOTE_KINDS } from "../../../server/wire/events";
import { UsageError } from "../../sdk/errors";
import { keyValues, list, OPTIONS, recorded, str, type Command } from "../command";

export const note: Command = {
  name: "note",
  summary: "Write a typed note (one of the NOTE kinds)",
  args: "<KIND> <text>",
  arity: [2, 2],
  options: {
    set: {
      type: "string",
      multiple: true,
      description: "an extra field, e.g. test=… budget=… (repeatable)",
      value: "KEY=VALUE",
    },
    task: OPTIONS.task,
    run: OPTIONS.inRun,
  },
  examples: [
    `podwatch note OBSERVATION "Two call sites, no tests"`,
    `podwatch note HYPOTHESIS "Cache misses" --set test="bench" --set budget="15 min"`,
    `Kinds: ${NOTE_KINDS.join(", ")}`,
  ],
  run: async ({ values: v, positionals: [kind, text], agent }) => {
    const k = kind!.toUpperCase();
    if (!(NOTE_KINDS as readonly string[]).includes(k))
      throw new UsageError(`unknown note kind ${kind}: use one of ${NOTE_KINDS.join(", ")}`);
    const body = { ...keyValues(list(v.set), "set"), kind: k, text } as Parameters<
      ReturnType<typeof agent>["note"]
    >[0];
    return recorded(`${k} note`, await agent().note(body, { taskId: str(v.task), runId: str(v.run) }));
  },
};
