// What every benchmark scenario returns: a figure, its unit and, for the performance targets, the
// bound it must meet. bench/run.ts prints them side by side with the previous run's figures.

/** A bound: the figure must be at least / at most this (in the figure's own unit). */
export type Target = { atLeast?: number; atMost?: number };

export type Figure = {
  /** Stable across runs: the previous run's figure is found by it. */
  key: string;
  label: string;
  /** null when the scenario could not measure it (the note says why). */
  value: number | null;
  unit: string;
  target?: Target;
  /** Context printed after the figure (e.g. "errors: 0", "ceiling of the load generator: …"). */
  note?: string;
};

export const met = (f: Figure): boolean | null =>
  f.value === null || !f.target
    ? null
    : (f.target.atLeast === undefined || f.value >= f.target.atLeast) &&
      (f.target.atMost === undefined || f.value <= f.target.atMost);
