"use client";
// The pod's views as WAI-ARIA tabs: one tab in the Tab order (roving tabindex),
// Left/Right/Home/End move to and open a tab. On a narrow screen the bar
// scrolls sideways and fades at the edge that has more tabs.
import { useEffect, useRef, useState, type ReactNode } from "react";

/** The tab a key moves to from `index` among `count` tabs, or null for other keys. */
export function tabForKey(key: string, index: number, count: number): number | null {
  if (key === "ArrowRight") return (index + 1) % count;
  if (key === "ArrowLeft") return (index - 1 + count) % count;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

export const tabId = (t: string) => `pod-tab-${t}`;
export const panelId = (t: string) => `pod-panel-${t}`;

type Props<T extends string> = {
  tabs: readonly T[];
  current: T;
  onSelect: (t: T) => void;
  extra?: (t: T) => ReactNode;
};

export function PodTabs<T extends string>({ tabs, current, onSelect, extra }: Props<T>) {
  const buttons = useRef(new Map<T, HTMLButtonElement>());
  const scroller = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ left: false, right: false });

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const update = () =>
      setEdges({ left: el.scrollLeft > 1, right: el.scrollLeft + el.clientWidth < el.scrollWidth - 1 });
    const observer = new ResizeObserver(update);
    observer.observe(el);
    el.addEventListener("scroll", update, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener("scroll", update);
    };
  }, []);

  const onKey = (e: React.KeyboardEvent, index: number) => {
    const next = tabForKey(e.key, index, tabs.length);
    if (next === null) return;
    e.preventDefault();
    const t = tabs[next]!;
    onSelect(t);
    const b = buttons.current.get(t);
    b?.focus();
    b?.scrollIntoView({ block: "nearest", inline: "nearest" });
  };

  const fade = "pointer-events-none absolute inset-y-0 w-10 from-white dark:from-zinc-950";
  return (
    <nav
      aria-label="Pod views"
      className="relative -mx-4"
      data-scroll-left={edges.left}
      data-scroll-right={edges.right}
      data-testid="pod-tabs"
    >
      <div ref={scroller} className="overflow-x-auto px-4 [scrollbar-width:thin]">
        <div
          role="tablist"
          aria-label="Pod views"
          className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800"
        >
          {tabs.map((t, i) => (
            <button
              key={t}
              ref={(el) => {
                if (el) buttons.current.set(t, el);
                else buttons.current.delete(t);
              }}
              id={tabId(t)}
              role="tab"
              type="button"
              aria-selected={current === t}
              aria-controls={current === t ? panelId(t) : undefined}
              tabIndex={current === t ? 0 : -1}
              onClick={() => onSelect(t)}
              onKeyDown={(e) => onKey(e, i)}
              className={`-mb-px shrink-0 border-b-2 px-3 py-2 text-sm capitalize focus-visible:rounded-t focus-visible:outline-2 focus-visible:outline-sky-600 ${current === t ? "border-zinc-900 font-medium text-zinc-900 dark:border-zinc-100 dark:text-zinc-100" : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"}`}
            >
              {t}
              {extra?.(t)}
            </button>
          ))}
        </div>
      </div>
      {edges.left && (
        <div aria-hidden className={`${fade} left-0 bg-linear-to-r`} data-testid="tabs-fade-left" />
      )}
      {edges.right && (
        <div aria-hidden className={`${fade} right-0 bg-linear-to-l`} data-testid="tabs-fade-right" />
      )}
    </nav>
  );
}
