// Chart colours as CSS variables, a darker shade on light and a lighter one on dark (Tailwind's
// 600 and 400), so marks keep 3:1 against either background. Recharts takes them as var(--…).
export const CHART_COLOR_VARS = [
  "[--chart-good:#059669] dark:[--chart-good:#34d399]",
  "[--chart-warn:#d97706] dark:[--chart-warn:#fbbf24]",
  "[--chart-bad:#dc2626] dark:[--chart-bad:#f87171]",
  "[--chart-cost:#0284c7] dark:[--chart-cost:#38bdf8]",
  "[--chart-budget:#7c3aed] dark:[--chart-budget:#a78bfa]",
  "[--chart-grid:#e4e4e7] dark:[--chart-grid:#3f3f46]",
].join(" ");

export const COLOR = {
  good: "var(--chart-good)",
  warn: "var(--chart-warn)",
  bad: "var(--chart-bad)",
  cost: "var(--chart-cost)",
  budget: "var(--chart-budget)",
  grid: "var(--chart-grid)",
} as const;

/** Axis ticks in the surrounding text colour (zinc-600 / zinc-400 from the figure). */
export const TICK = { fill: "currentColor", fontSize: 11 } as const;
