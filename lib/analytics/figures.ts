import { proportion, type Proportion } from "../metrics/wilson";

// The shape every analytics page answers with: a table of rows (what the chart draws and the
// CSV/JSON export holds, column for column), where each count can be opened as the task list
// filtered to exactly the tasks behind it (a slice, see slices.ts).

/**
 * A table column: `key` reads the row, `label` heads the table and the CSV. A `rate` is a
 * proportion of items: its row carries the count and the 95 % Wilson interval beside the
 * value (RATE_SUFFIXES); a `percent` is a plain fraction with no count behind it (a mean).
 */
export type Column = { key: string; label: string; kind: "text" | "count" | "rate" | "percent" | "number" };

export type Cell = string | number | null;
export type FigureRow = Record<string, Cell> & { key: string };

/** Where a cell leads (row key → column key → href): a count opens the task list filtered to exactly its tasks. */
export type Drill = Record<string, Record<string, string>>;

export type FigureTable = { title: string; columns: Column[]; rows: FigureRow[]; drill: Drill };

/** num / den, or null when nothing was measured (a rate of nothing is undefined, not zero). */
export const rate = (num: number, den: number): number | null => (den === 0 ? null : num / den);

/** The row keys beside a rate `key`: its successes, its n and its 95 % interval. */
export const RATE_SUFFIXES = { successes: "_successes", n: "_n", low: "_low", high: "_high" } as const;
const RATE_PARTS: { suffix: string; label: string }[] = [
  { suffix: RATE_SUFFIXES.successes, label: "successes" },
  { suffix: RATE_SUFFIXES.n, label: "n" },
  { suffix: RATE_SUFFIXES.low, label: "95 % CI low" },
  { suffix: RATE_SUFFIXES.high, label: "95 % CI high" },
];

/** A rate's cells for a row: `key` is the value, the suffixed keys its count and interval. */
export function rateCells(key: string, successes: number, n: number): Record<string, number | null> {
  const p = proportion(successes, n);
  return {
    [key]: p.rate,
    [key + RATE_SUFFIXES.successes]: p.successes,
    [key + RATE_SUFFIXES.n]: p.n,
    [key + RATE_SUFFIXES.low]: p.low,
    [key + RATE_SUFFIXES.high]: p.high,
  };
}

/** A rate cell read back with its count and interval (null when the row has no such rate). */
export function rateOf(row: Record<string, Cell | undefined>, key: string): Proportion | null {
  const n = row[key + RATE_SUFFIXES.n];
  if (typeof n !== "number") return null;
  const num = (suffix: string) => (typeof row[key + suffix] === "number" ? (row[key + suffix] as number) : null);
  return {
    rate: num(""),
    successes: num(RATE_SUFFIXES.successes) ?? 0,
    n,
    low: num(RATE_SUFFIXES.low),
    high: num(RATE_SUFFIXES.high),
  };
}

/** The columns an export holds: each rate followed by its successes, n and interval. */
export function exportColumns(columns: Column[]): { key: string; label: string }[] {
  return columns.flatMap((c) =>
    c.kind === "rate"
      ? [c, ...RATE_PARTS.map((part) => ({ key: c.key + part.suffix, label: `${c.label} (${part.label})` }))]
      : [c],
  );
}

export const text = (key: string, label: string): Column => ({ key, label, kind: "text" });
export const count = (key: string, label: string): Column => ({ key, label, kind: "count" });
export const rateColumn = (key: string, label: string): Column => ({ key, label, kind: "rate" });
export const percentColumn = (key: string, label: string): Column => ({ key, label, kind: "percent" });
export const number = (key: string, label: string): Column => ({ key, label, kind: "number" });
