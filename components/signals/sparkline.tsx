// A small trend line (cost per day, reviews per day) beside an agent's figures. Plain SVG: at
// this size a chart library adds nothing but weight. Screen readers get the values as its label.
import { COLOR } from "./chart-colors";

const W = 96;
const H = 24;

/** The line's points over a W×H box (a level line for a single or constant value). */
function sparkXY(values: number[]): [number, number][] {
  if (values.length === 0) return [];
  const max = Math.max(...values, 0);
  const min = Math.min(...values, 0);
  const span = max - min || 1;
  // One value (a single day so far) is drawn as a level line across, so it is still seen.
  const series = values.length === 1 ? [values[0]!, values[0]!] : values;
  const step = W / (series.length - 1);
  return series.map((v, i) => [i * step, H - 2 - ((v - min) / span) * (H - 4)]);
}

const pointsOf = (xy: [number, number][]) => xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
export const sparkPoints = (values: number[]) => pointsOf(sparkXY(values));

export function Sparkline({
  values,
  label,
  color = COLOR.cost,
}: {
  values: number[];
  label: string;
  color?: string;
}) {
  const xy = sparkXY(values);
  const end = xy.at(-1);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${W} ${H}`}
      width={W}
      height={H}
      className="shrink-0 overflow-visible"
    >
      <title>{label}</title>
      {end && (
        <polyline
          points={pointsOf(xy)}
          fill="none"
          stroke={color}
          strokeWidth={1.5}
          strokeLinejoin="round"
          vectorEffect="non-scaling-stroke"
        />
      )}
      {end && <circle cx={end[0]} cy={end[1]} r={2} fill={color} />}
    </svg>
  );
}
