"use client";
// Keyboard focus over a list of inbox items: the first j (or k) selects the
// first item, j/k move; after an item is settled, focus moves to the item that
// took its place (the next one), or the last one left.
import { useCallback, useEffect, useRef, useState } from "react";

const typing = (t: EventTarget | null) =>
  t instanceof HTMLElement &&
  (["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName) || t.isContentEditable || !!t.closest("dialog"));

/** Which index j/k go to from `current` (-1: nothing selected yet), within `count` items. */
export function stepFocus(current: number, count: number, key: "j" | "k"): number {
  if (count === 0) return -1;
  if (current < 0) return 0;
  return Math.max(0, Math.min(count - 1, current + (key === "j" ? 1 : -1)));
}

export function useInboxFocus(keys: string[]) {
  const [focus, setFocus] = useState(-1);
  const refs = useRef(new Map<string, HTMLLIElement>());
  const keysRef = useRef(keys);
  const settled = useRef<{ key: string; index: number } | null>(null);
  const joined = keys.join("\n");

  useEffect(() => {
    keysRef.current = keys;
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.key !== "j" && e.key !== "k") || typing(e.target) || e.metaKey || e.ctrlKey || e.altKey) return;
      const list = keysRef.current;
      const current = list.findIndex((k) => refs.current.get(k)?.contains(document.activeElement));
      const next = stepFocus(current, list.length, e.key);
      if (next >= 0) refs.current.get(list[next]!)?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // After an action: once the settled item has left the list, focus what took its place.
  useEffect(() => {
    const s = settled.current;
    const list = joined ? joined.split("\n") : [];
    if (!s || list.includes(s.key)) return;
    settled.current = null;
    const i = Math.min(s.index, list.length - 1);
    if (i >= 0) refs.current.get(list[i]!)?.focus();
  }, [joined]);

  const bind = useCallback(
    (key: string, index: number) => ({
      ref: (el: HTMLLIElement | null) => {
        if (el) refs.current.set(key, el);
        else refs.current.delete(key);
      },
      onFocus: () => setFocus(index),
      onSettled: () => {
        settled.current = { key, index };
      },
      focused: index === focus,
    }),
    [focus],
  );
  return { bind };
}
