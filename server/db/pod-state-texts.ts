// The texts of pod states' entries already written, by object, shared by both writers of a whole
// state: checkpoints (../history/checkpoint-store.ts) and snapshots (./snapshot-text.ts). A pod's
// states never change once made (ARCHITECTURE.md), so an entry's text stands as long as its object
// lives, and is held as long: about one state's text per pod in memory.
import type { EntryTexts } from "./json-walk";

export const POD_STATE_TEXTS: EntryTexts = new WeakMap();
