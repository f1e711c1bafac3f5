// Type test, checked by `tsc --noEmit` (npm test): an event type without a reducer does not compile.
// `Reducers` has a key for every event type, so adding a type to the schemas adds a key that
// apply-event.ts's REDUCERS must fill; here one key is left out to show the compiler refuses it.
import type { EventType } from "../events/event-schemas";
import type { Reducers } from "./rules";
import { podReducers } from "./reduce-pod";
import { taskReducers } from "./reduce-tasks";
import { evidenceReducers } from "./reduce-evidence";
import { decisionReducers } from "./reduce-decisions";
import { runReducers } from "./reduce-runs";
import { jobReducers } from "./reduce-jobs";
import { systemReducers } from "./reduce-system";
import { sessionReducers } from "./reduce-sessions";
import { toolGateReducers } from "./reduce-tool-gates";
import { budgetReducers } from "./reduce-budgets";
import { steeringReducers } from "./reduce-steering";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const sameKeys: Equal<keyof Reducers, EventType> = true;

const others = {
  ...taskReducers,
  ...evidenceReducers,
  ...decisionReducers,
  ...runReducers,
  ...jobReducers,
  ...systemReducers,
  ...sessionReducers,
  ...toolGateReducers,
  ...budgetReducers,
  ...steeringReducers,
};
const complete: Reducers = { ...podReducers, ...others };

const { note: _note, ...podReducersButNote } = podReducers;
// @ts-expect-error -- "note" is an event type with no reducer: Property 'note' is missing
const missingOne: Reducers = { ...podReducersButNote, ...others };

// @ts-expect-error -- a reducer under another type's key: a checkpoint is no note
const misfiled: Reducers = { ...complete, note: podReducers.checkpoint };

export const proofs = [sameKeys, complete, missingOne, misfiled];
