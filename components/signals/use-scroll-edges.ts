"use client";
// Whether a sideways-scrolling box has more to show on its left or right, kept up to date as it
// scrolls or resizes: the signals table shows an edge shadow and a hint only while it does.
import { useEffect, useState, type RefObject } from "react";

export type ScrollEdges = { left: boolean; right: boolean };

/** More than a pixel hidden on each side (sub-pixel widths leave a fraction over at the end). */
export const edgesOf = (el: {
  scrollLeft: number;
  scrollWidth: number;
  clientWidth: number;
}): ScrollEdges => ({
  left: el.scrollLeft > 1,
  right: el.scrollLeft + el.clientWidth < el.scrollWidth - 1,
});

export function useScrollEdges(ref: RefObject<HTMLElement | null>): ScrollEdges {
  const [edges, setEdges] = useState<ScrollEdges>({ left: false, right: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () =>
      setEdges((was) => {
        const now = edgesOf(el);
        return now.left === was.left && now.right === was.right ? was : now;
      });
    update();
    el.addEventListener("scroll", update, { passive: true });
    const ro = new ResizeObserver(update);
    ro.observe(el);
    if (el.firstElementChild) ro.observe(el.firstElementChild);
    return () => {
      el.removeEventListener("scroll", update);
      ro.disconnect();
    };
  }, [ref]);
  return edges;
}
