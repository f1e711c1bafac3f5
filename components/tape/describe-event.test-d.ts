// Type test, checked by `tsc --noEmit` (npm test): an event type without a tape description does not compile.
// `Describers` has a key for every event type of the vocabulary, each taking that type's body.
import type { EventType } from "@/server/wire/vocabulary";
import type { Describers } from "./describe-event";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const sameKeys: Equal<keyof Describers, EventType> = true;

declare const complete: Describers;
const { note: _note, ...allButNote } = complete;
// @ts-expect-error -- "note" is an event type with no description: Property 'note' is missing
const missingOne: Describers = allButNote;

// @ts-expect-error -- a description reading another type's body: a checkpoint body has no `kind`
const misread: Describers = { ...complete, checkpoint: (b) => b.kind };

export const proofs = [sameKeys, missingOne, misread];
