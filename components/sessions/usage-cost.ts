// How a cost reads in the Sessions tab, pure so it is tested without a browser. A model no price
// list knows is never shown as free: its reports came without a cost, and it reads "unknown model".
export const usd = (n: number) => (n === 0 ? "—" : `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`);

export const costText = (u: { costUsd: number; unpriced: number }) =>
  u.unpriced === 0 ? usd(u.costUsd) : u.costUsd === 0 ? "unknown model" : `${usd(u.costUsd)} + unknown`;

/** The usage table's total, and what it leaves out. */
export function totalText(usage: { costUsd: number; unpriced: number }[]): string {
  const total = usage.reduce((a, u) => a + u.costUsd, 0);
  const unknown = usage.filter((u) => u.unpriced > 0).length;
  return `total ${usd(total)}${unknown > 0 ? ` (not counting ${unknown} of unknown cost)` : ""}`;
}
