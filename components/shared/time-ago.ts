// How long ago in a few characters ("12s ago"), or for a time still to come (a link's expiry) how
// long until it ("in 7d"): a negative age is the future, not "just now".
function span(s: number): string {
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.round(h / 24)}d`;
}

/** `ms`: now minus the time; negative for a time still to come. */
export function describeTime(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 0) return s > -5 ? "in a moment" : `in ${span(-s)}`;
  return s < 5 ? "just now" : `${span(s)} ago`;
}
