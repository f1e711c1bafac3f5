"use client";
import { create } from "zustand";

/** UI state of the tape: the filters (empty = the whole tape, live). */
export type TapeFilter = {
  type: string;
  actor: string;
  role: string;
  taskId: string;
  runId: string;
  q: string;
};
export const NO_FILTER: TapeFilter = { type: "", actor: "", role: "", taskId: "", runId: "", q: "" };

type Store = { filter: TapeFilter; set: (patch: Partial<TapeFilter>) => void; clear: () => void };
export const useTapeFilter = create<Store>((set) => ({
  filter: NO_FILTER,
  set: (patch) => set((s) => ({ filter: { ...s.filter, ...patch } })),
  clear: () => set({ filter: NO_FILTER }),
}));

export const isFiltered = (f: TapeFilter) => Object.values(f).some((v) => v.trim() !== "");

/** Agent turns folded into one row each (on by default): a view setting, not a filter of the tape. */
export const useTapeGrouping = create<{ grouped: boolean; setGrouped: (grouped: boolean) => void }>(
  (set) => ({
    grouped: true,
    setGrouped: (grouped) => set({ grouped }),
  }),
);
