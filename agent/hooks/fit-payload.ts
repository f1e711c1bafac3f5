// Claude Code hands a hook everything: a PostToolUse of a big Read carries the whole file. The
// server keeps only summaries and takes at most 2 MiB, so a larger payload has its long texts
// cut here (the tool's command, path or URL are short and stay whole) instead of being refused.

/** What the server's hook route takes (server/wire/hooks.ts HOOK_BODY_MAX_BYTES), less room for our own fields. */
export const SERVER_BODY_MAX_BYTES = 2 * 1024 * 1024 - 4096;
/** How much of any one long text survives the cut: far more than the 2,000-character summary the tape keeps. */
const KEEP_CHARS = 16 * 1024;

function cutTexts(value: unknown, depth: number): unknown {
  if (typeof value === "string")
    return value.length > KEEP_CHARS
      ? `${value.slice(0, KEEP_CHARS)}… [cut by podwatch hook: ${value.length} characters]`
      : value;
  if (depth <= 0 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.slice(0, 1000).map((v) => cutTexts(v, depth - 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, cutTexts(v, depth - 1)]),
  );
}

/** The payload's JSON, its long texts cut when it would not fit the server's limit. */
export function fitPayload(payload: Record<string, unknown>): string {
  const whole = JSON.stringify(payload);
  if (Buffer.byteLength(whole) <= SERVER_BODY_MAX_BYTES) return whole;
  return JSON.stringify(cutTexts(payload, 6));
}
