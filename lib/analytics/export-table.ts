import { z } from "zod";
import { AppError } from "../errors/app-error";
import { exportColumns, type Cell, type FigureTable } from "./figures";
import { toCsv } from "../csv/csv";

// "Exactly what is shown": the export is the page's table, same columns, same rows, same order.

// A rate travels with its successes, n and 95 % interval (exportColumns), as the table shows it.
export function tableToCsv(table: Pick<FigureTable, "columns" | "rows">): string {
  const columns = exportColumns(table.columns);
  return toCsv(
    columns.map((c) => c.label),
    table.rows.map((row) => columns.map((c) => row[c.key] ?? null)),
  );
}

export function tableToJson(table: Pick<FigureTable, "columns" | "rows">): Record<string, Cell>[] {
  const columns = exportColumns(table.columns);
  return table.rows.map((row) => Object.fromEntries(columns.map((c) => [c.key, row[c.key] ?? null])));
}

/** ?format=csv&table=NAME answers one of the page's tables as CSV (an attachment); otherwise the whole page as JSON. */
export const ExportQueryFields = {
  format: z.enum(["json", "csv"]).default("json").describe("csv answers the table named by `table`"),
  table: z.string().max(40).optional().describe("which of the page's tables the CSV holds (default: the first)"),
};

export function analyticsResponse(
  page: string,
  result: Record<string, unknown>,
  query: { format: "json" | "csv"; table?: string },
): unknown {
  if (query.format === "json") return result;
  const tables = Object.entries(result).filter((entry): entry is [string, FigureTable] => isTable(entry[1]));
  const chosen = query.table ? tables.find(([name]) => name === query.table) : tables[0];
  if (!chosen)
    throw new AppError(
      "BAD_REQUEST",
      `This page has no table "${query.table}"; use one of ${tables.map(([n]) => n).join(", ")}`,
    );
  return new Response(tableToCsv(chosen[1]), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${page}-${chosen[0]}.csv"`,
    },
  });
}

const isTable = (value: unknown): value is FigureTable =>
  typeof value === "object" && value !== null && "columns" in value && "rows" in value;
