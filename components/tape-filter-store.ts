"use client";
import { create } from "zustand";

/** UI state of the tape: which event types are shown. */
type TapeFilter = { type: "all" | "checkpoint" | "note"; setType: (t: TapeFilter["type"]) => void };

export const useTapeFilter = create<TapeFilter>((set) => ({ type: "all", setType: (type) => set({ type }) }));
