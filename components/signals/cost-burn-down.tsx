"use client";
// The pod's cumulative cost over time, each pod cost budget a dashed line it burns towards.
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import type { PodSignalsView } from "@/server/wire/signals";
import { costBudgets, costCaption, costRows } from "./chart-data";
import { ChartFigure } from "./chart-figure";
import { ChartTooltip } from "./chart-tooltip";
import { COLOR, TICK } from "./chart-colors";
import { usd } from "./format-signals";

const when = (t: number) =>
  new Date(t).toLocaleString("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
const tickDay = (t: number) => new Date(t).toLocaleDateString("en-US", { month: "short", day: "numeric" });
const tickTime = (t: number) =>
  new Date(t).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" });
const tickSeconds = (t: number) =>
  new Date(t).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
/** Ticks as fine as the span needs (over a short span every tick would read the same date or minute). */
function tickFor(rows: { t: number }[]) {
  const span = rows.length > 1 ? rows.at(-1)!.t - rows[0]!.t : Infinity;
  return span < 3_600_000 ? tickSeconds : span < 2 * 86_400_000 ? tickTime : tickDay;
}

export function CostBurnDown({ view }: { view: PodSignalsView }) {
  const rows = costRows(view);
  const budgets = costBudgets(view);
  const table = {
    headers: ["Seq", "Time", "Cost so far"],
    rows: rows.map((r) => [`#${r.seq}`, when(r.t), usd(r.costUsd)]),
  };
  return (
    <ChartFigure title="Cost burn-down" caption={costCaption(view)} testId="chart-cost" table={table}>
      <LineChart
        responsive
        style={{ width: "100%", height: 200 }}
        data={rows}
        margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
        accessibilityLayer={false}
      >
        <CartesianGrid stroke={COLOR.grid} vertical={false} />
        <XAxis
          dataKey="t"
          type="number"
          scale="time"
          domain={["dataMin", "dataMax"]}
          tickFormatter={tickFor(rows)}
          tick={TICK}
          stroke={COLOR.grid}
          minTickGap={24}
        />
        <YAxis tickFormatter={(n: number) => `$${n}`} tick={TICK} stroke={COLOR.grid} width={48} />
        <Tooltip content={(p) => <ChartTooltip {...p} title={(l) => when(Number(l))} value={usd} />} />
        <Line
          type="stepAfter"
          dataKey="costUsd"
          name="Cost so far"
          stroke={COLOR.cost}
          strokeWidth={2}
          dot={rows.length < 30}
          isAnimationActive={false}
        />
        {budgets.map((b) => (
          <ReferenceLine
            key={b.budgetId}
            y={b.limit}
            ifOverflow="extendDomain"
            stroke={COLOR.budget}
            strokeDasharray="5 4"
            label={{
              value: `${b.budgetId} ${usd(b.limit)}`,
              position: "insideTopLeft",
              fill: "currentColor",
              fontSize: 11,
            }}
          />
        ))}
      </LineChart>
    </ChartFigure>
  );
}
