"use client";
import { create } from "zustand";
import { persist } from "zustand/middleware";

/** UI preferences for new-inbox alerts, kept in this browser. */
type AlertPrefs = { sound: boolean; setSound: (on: boolean) => void };

export const useAlertPrefs = create<AlertPrefs>()(
  persist((set) => ({ sound: false, setSound: (sound) => set({ sound }) }), { name: "podwatch:alerts" }),
);
