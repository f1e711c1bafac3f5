"use client";
// The charts' hover box in the app's colours (recharts' default is white on any theme).
import type { TooltipContentProps } from "recharts";

type Props = Partial<Pick<TooltipContentProps, "active" | "payload" | "label">> & {
  title: (label: string | number | undefined) => string;
  value: (n: number) => string;
};

export function ChartTooltip({ active, payload, label, title, value }: Props) {
  if (!active || !payload?.length) return null;
  return (
    <div className="rounded-md border border-zinc-200 bg-white px-2 py-1.5 text-xs text-zinc-700 shadow-sm dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200">
      <p className="font-medium">{title(label)}</p>
      {payload.map((p) => (
        <p key={String(p.dataKey)} className="tabular-nums">
          <span
            aria-hidden
            className="mr-1 inline-block h-2 w-2 rounded-full"
            style={{ background: p.color }}
          />
          {p.name}: {value(Number(p.value))}
        </p>
      ))}
    </div>
  );
}
