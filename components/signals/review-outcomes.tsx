"use client";
// Review verdicts per day across the pod, stacked: approve, changes requested, reject.
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import type { PodSignalsView } from "@/server/wire/signals";
import { reviewCaption, reviewRows, shortDay } from "./chart-data";
import { ChartFigure } from "./chart-figure";
import { ChartTooltip } from "./chart-tooltip";
import { COLOR, TICK } from "./chart-colors";

export function ReviewOutcomes({ view }: { view: PodSignalsView }) {
  const rows = reviewRows(view.pod);
  const any = rows.some((r) => r.approve + r.changes_requested + r.reject > 0);
  const table = {
    headers: ["Day", "Approve", "Changes requested", "Reject"],
    rows: any ? rows.map((r) => [r.day, r.approve, r.changes_requested, r.reject]) : [],
  };
  return (
    <ChartFigure title="Review outcomes" caption={reviewCaption(rows)} testId="chart-reviews" table={table}>
      <BarChart
        responsive
        style={{ width: "100%", height: 200 }}
        data={rows}
        margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
        accessibilityLayer={false}
      >
        <CartesianGrid stroke={COLOR.grid} vertical={false} />
        <XAxis dataKey="day" tickFormatter={shortDay} tick={TICK} stroke={COLOR.grid} minTickGap={16} />
        <YAxis allowDecimals={false} tick={TICK} stroke={COLOR.grid} width={32} />
        <Tooltip
          cursor={{ fill: COLOR.grid, opacity: 0.4 }}
          content={(p) => <ChartTooltip {...p} title={(l) => shortDay(String(l))} value={String} />}
        />
        <Legend wrapperStyle={{ fontSize: 11 }} />
        <Bar
          dataKey="approve"
          name="Approve"
          stackId="v"
          fill={COLOR.good}
          maxBarSize={56}
          isAnimationActive={false}
        />
        <Bar
          dataKey="changes_requested"
          name="Changes requested"
          stackId="v"
          fill={COLOR.warn}
          maxBarSize={56}
          isAnimationActive={false}
        />
        <Bar
          dataKey="reject"
          name="Reject"
          stackId="v"
          fill={COLOR.bad}
          maxBarSize={56}
          isAnimationActive={false}
        />
      </BarChart>
    </ChartFigure>
  );
}
