// A small trend line (cost per day, reviews per day) beside an agent's figures. Plain SVG: at
// this size a chart library adds nothing but weight. Screen readers get the values as its label.
import { COLOR } from "./chart-colors";

const W = 96;
const H = 24;

/** The polyline's points for values over a W×H box (a flat line for a single or constant value). */
export function sparkPoints(values: number[]): string {
  if (values.length === 0) return "";
  const max = Math.max(...values, 0);
  const min = Math.min(...values, 0);
  const span = max - min || 1;
  const step = values.length > 1 ? W / (values.length - 1) : 0;
  return values.map((v, i) => `${(values.length > 1 ? i * step : W / 2).toFixed(1)},${(H - 2 - ((v - min) / span) * (H - 4)).toFixed(1)}`).join(" ");
}

export function Sparkline({ values, label, color = COLOR.cost }: { values: number[]; label: string; color?: string }) {
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${W} ${H}`} width={W} height={H} className="shrink-0 overflow-visible">
      <title>{label}</title>
      {values.length > 0 && <polyline points={sparkPoints(values)} fill="none" stroke={color} strokeWidth={1.5} strokeLinejoin="round" vectorEffect="non-scaling-stroke" />}
    </svg>
  );
}
