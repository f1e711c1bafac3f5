"use client";
// Per watched agent, a small chart of its checkpoints per day (on time, late) over the same days,
// and its staleness episodes in words: a timeline of who keeps the pod's cadence.
import { Bar, BarChart, Tooltip, XAxis, YAxis } from "recharts";
import type { PodSignalsView } from "@/server/wire/signals";
import { cadenceByAgent, cadenceCaption, shortDay } from "./chart-data";
import { ChartFigure } from "./chart-figure";
import { ChartTooltip } from "./chart-tooltip";
import { COLOR, TICK } from "./chart-colors";
import { plural } from "./format-signals";

/** The busiest day's checkpoints: the mini chart's only y tick besides 0. */
const peak = (rows: { onTime: number; late: number }[]) => Math.max(1, ...rows.map((r) => r.onTime + r.late));

export function CheckpointCadence({ view }: { view: PodSignalsView }) {
  const agents = cadenceByAgent(view);
  const table = {
    headers: ["Agent", "Day", "On time", "Late"],
    rows: agents.flatMap((a) =>
      a.rows.filter((r) => r.onTime + r.late > 0).map((r) => [a.name, r.day, r.onTime, r.late]),
    ),
  };
  if (table.rows.length === 0 && agents.length > 0)
    table.rows = agents.map((a) => [a.name, "—", a.onTime, a.late]);
  return (
    <ChartFigure
      title="Checkpoint cadence"
      caption={cadenceCaption(agents)}
      testId="chart-cadence"
      table={table}
    >
      <ul className="space-y-2">
        {agents.map((a) => (
          <li key={a.agentId}>
            <p className="text-xs">
              <span className="font-medium text-zinc-800 dark:text-zinc-200">{a.name}</span> ·{" "}
              {plural(a.staleEpisodes, "staleness episode")}
            </p>
            <BarChart
              responsive
              style={{ width: "100%", height: 72 }}
              data={a.rows}
              margin={{ top: 4, right: 12, bottom: 0, left: 0 }}
              accessibilityLayer={false}
            >
              <XAxis
                dataKey="day"
                tickFormatter={shortDay}
                tick={TICK}
                stroke={COLOR.grid}
                minTickGap={16}
                height={18}
              />
              <YAxis
                allowDecimals={false}
                domain={[0, peak(a.rows)]}
                ticks={[0, peak(a.rows)]}
                tick={TICK}
                stroke={COLOR.grid}
                width={32}
              />
              <Tooltip
                cursor={{ fill: COLOR.grid, opacity: 0.4 }}
                content={(p) => (
                  <ChartTooltip {...p} title={(l) => `${a.name}, ${shortDay(String(l))}`} value={String} />
                )}
              />
              <Bar
                dataKey="onTime"
                name="On time"
                stackId="c"
                fill={COLOR.good}
                maxBarSize={40}
                isAnimationActive={false}
              />
              <Bar
                dataKey="late"
                name="Late"
                stackId="c"
                fill={COLOR.warn}
                maxBarSize={40}
                isAnimationActive={false}
              />
            </BarChart>
          </li>
        ))}
      </ul>
    </ChartFigure>
  );
}
