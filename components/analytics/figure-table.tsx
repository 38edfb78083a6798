"use client";
import { Link } from "@/components/ui/link";
import { rateOf, type Column, type FigureRow, type FigureTable as Table } from "@/lib/analytics/figures";
import { formatPercent, formatRate } from "@/components/charts/chart-format";

/** A cell as the table shows it: a rate with its count and 95 % interval ("100.0 % (1 of 1; 95 % CI 21–100 %)"). */
function formatCell(column: Column, row: FigureRow): string {
  const value = row[column.key];
  const proportion = column.kind === "rate" ? rateOf(row, column.key) : null;
  if (proportion) return formatRate(proportion);
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  if (column.kind === "rate" || column.kind === "percent") return formatPercent(value);
  // one locale on the server and in every browser: the page's first HTML is rendered on the server, and hydration must find the same text
  if (column.kind === "number") return value.toLocaleString("en-US", { maximumFractionDigits: 4 });
  return value.toLocaleString("en-US");
}

/** The numbers behind a chart; every count links to the task list filtered to exactly its tasks. */
export function FigureTable({ table, testId }: { table: Table; testId?: string }) {
  return (
    <div className="min-w-0 overflow-x-auto">
      <table className="w-full bg-white text-sm" data-testid={testId}>
        <caption className="mb-1 text-left text-sm font-medium">{table.title}</caption>
        <thead>
          <tr className="border-b text-left text-slate-600">
            {table.columns.map((c) => (
              <th key={c.key} className="px-2 py-1 font-medium">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.length === 0 && (
            <tr>
              <td colSpan={table.columns.length} className="px-2 py-2 text-slate-600">
                Nothing to count yet.
              </td>
            </tr>
          )}
          {table.rows.map((row) => (
            <tr key={row.key} className="border-b">
              {table.columns.map((c) => {
                const href = table.drill[row.key]?.[c.key];
                const shown = formatCell(c, row);
                return (
                  <td key={c.key} className={`px-2 py-1 ${c.kind === "text" ? "" : "tabular-nums"}`}>
                    {href && row[c.key] !== 0 ? (
                      <Link href={href} className="text-blue-700 underline" data-drill={c.key}>
                        {shown}
                      </Link>
                    ) : (
                      shown
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
