// How signals read to a person: rates as whole percentages, money in dollars, durations in the
// largest unit that keeps them short. A missing rate (nothing to divide by) is "—", never 0%.

export const NONE = "—";

export const NO_SIGNALS = "No signals yet — reviews, checkpoints and usage appear as agents report.";

export const percent = (rate: number | null) =>
  rate === null || !Number.isFinite(rate) ? NONE : `${Math.round(rate * 100)}%`;

/** Dollars: cents for most amounts, four places below ten cents so a few cheap calls do not read as $0.00. */
export const usd = (n: number) => `$${n !== 0 && Math.abs(n) < 0.1 ? n.toFixed(4) : n.toFixed(2)}`;

export const count = (n: number) => n.toLocaleString("en-US");

/** 12,900 → "12.9k", 3,400,000 → "3.4M": token counts in a narrow column. */
export function compact(n: number): string {
  if (Math.abs(n) >= 1_000_000) return `${trim(n / 1_000_000)}M`;
  if (Math.abs(n) >= 1_000) return `${trim(n / 1_000)}k`;
  return String(n);
}
const trim = (n: number) => (n >= 100 ? String(Math.round(n)) : n.toFixed(1).replace(/\.0$/, ""));

export function duration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return NONE;
  const s = ms / 1000;
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86_400) return `${trim(s / 3600)} h`;
  return `${trim(s / 86_400)} d`;
}

/** "1 review", "3 reviews". */
export const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;
