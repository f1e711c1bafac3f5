// An operation that only appends: the events a person's decision makes (built from the input and
// the caller's name), appended as the caller through the one write path, which admits them as it
// admits any door's. What it answers: the seqs it appended.
import { z } from "zod";
import type { Access } from "../domain/events/event-schemas";
import { defineOperation, type Operation } from "../operations/operation";
import type { TEvent } from "../wire/events";
import { asTheApiWould } from "./perform-pod-action";

export const ZAppended = z.object({ seqs: z.array(z.number().int()) });

type PodInput = z.ZodObject & z.ZodType<{ podId: string }>;

export type AppendAction<I extends PodInput> = {
  name: string;
  summary: string;
  tag: string;
  input: I;
  /** The caller's access to the pod (the guard, for the server action as over REST). */
  need: Access;
  events: (input: z.output<I>, actor: string) => TEvent[];
};

/** A control-room action (no REST route: agents append the same events themselves). */
export function appendOperation<I extends PodInput>(a: AppendAction<I>): Operation<I, typeof ZAppended> {
  return defineOperation({
    name: a.name,
    summary: a.summary,
    tag: a.tag,
    input: a.input,
    output: ZAppended,
    guard: { pod: a.need },
    action: true,
    run: async ({ app, identity, actor }, input) => {
      const acks = await app.append(input.podId, a.events(input, actor).map(asTheApiWould), identity);
      return { seqs: acks.map((ack) => ack.seq) };
    },
  });
}
