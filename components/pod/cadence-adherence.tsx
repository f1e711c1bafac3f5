// The cadence watchdog's summary: "92% on cadence · 1 stale now" (checkpoints that came within
// the pod's cadence, of those counted; agents flagged stale now). Nothing until a watched agent
// has checkpointed or gone stale.
import type { CadenceAdherence as Adherence } from "@/server/domain/state/cadence";

export function CadenceAdherence({
  cadence,
  cadenceMinutes,
}: {
  cadence: Adherence;
  cadenceMinutes?: number;
}) {
  if (cadence.percent === null) return null;
  const stale = cadence.staleNow.length;
  const title = `Checkpoints every ${cadenceMinutes ?? 30} minutes: ${cadence.onTime} on time, ${cadence.late} late, ${cadence.staleEpisodes} stale episodes${stale ? `; stale now: ${cadence.staleNow.join(", ")}` : ""}`;
  return (
    <span
      data-testid="cadence-adherence"
      title={title}
      className={`text-xs tabular-nums ${stale ? "font-medium text-amber-800 dark:text-amber-400" : "text-zinc-600 dark:text-zinc-400"}`}
    >
      {cadence.percent}% on cadence{stale ? ` · ${stale} stale now` : ""}
    </span>
  );
}
