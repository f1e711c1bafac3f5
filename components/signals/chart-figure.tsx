"use client";
// A chart as a figure: a heading that names it, the drawing (hidden from screen readers, which
// get the same numbers as a table) and a caption that says what it shows in words.
import { useId, type ReactNode } from "react";
import { CHART_COLOR_VARS } from "./chart-colors";

type FigureTable = { headers: string[]; rows: (string | number)[][] };

type Props = { title: string; caption: string; testId: string; table: FigureTable; children: ReactNode };

export function ChartFigure({ title, caption, testId, table, children }: Props) {
  const id = useId();
  return (
    <figure
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-caption`}
      data-testid={testId}
      className={`min-w-0 rounded-lg border border-zinc-200 bg-white p-3 text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400 ${CHART_COLOR_VARS}`}
    >
      <h3 id={`${id}-title`} className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
        {title}
      </h3>
      <figcaption id={`${id}-caption`} data-testid={`${testId}-caption`} className="mt-0.5 text-xs">
        {caption}
      </figcaption>
      {table.rows.length > 0 && (
        <>
          <div aria-hidden className="mt-2 w-full min-w-0">
            {children}
          </div>
          <table className="sr-only">
            <caption>{title}</caption>
            <thead>
              <tr>
                {table.headers.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((r, i) => (
                <tr key={i}>
                  {r.map((c, j) =>
                    j === 0 ? (
                      <th key={j} scope="row">
                        {c}
                      </th>
                    ) : (
                      <td key={j}>{c}</td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </figure>
  );
}
