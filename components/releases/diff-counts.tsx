"use client";
import { BarChart } from "@/components/charts/bar-chart";

export type DiffCounts = { added: number; removed: number; changed: number; unchanged: number };

/** The diff's counts as a chart with the same numbers in a table beside it. */
export function DiffCountsChart({ counts }: { counts: DiffCounts }) {
  const rows = [
    { label: "Added", value: counts.added, href: "#added" },
    { label: "Removed", value: counts.removed, href: "#removed" },
    { label: "Changed", value: counts.changed, href: "#changed" },
    { label: "Unchanged", value: counts.unchanged },
  ];
  return (
    <div className="grid gap-4 md:grid-cols-[2fr_1fr]">
      <BarChart title="Tasks by change" bars={rows} scale={{ kind: "count" }} testId="release-diff-chart" />
      <table className="h-fit text-sm" data-testid="release-diff-counts">
        <caption className="sr-only">Tasks by change</caption>
        <thead>
          <tr className="text-left text-slate-600">
            <th scope="col" className="pr-4 font-medium">
              Change
            </th>
            <th scope="col" className="text-right font-medium">
              Tasks
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row" className="pr-4 text-left font-normal">
                {row.label}
              </th>
              <td className="text-right tabular-nums">{row.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
