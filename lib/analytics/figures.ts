// The shape every analytics page answers with: a table of rows (what the chart draws and the
// CSV/JSON export holds, column for column), where each count can be opened as the task list
// filtered to exactly the tasks behind it (a slice, see slices.ts).

/** A table column: `key` reads the row, `label` heads the table and the CSV. */
export type Column = { key: string; label: string; kind: "text" | "count" | "rate" | "number" };

export type Cell = string | number | null;
export type FigureRow = Record<string, Cell> & { key: string };

/** Where a cell leads (row key → column key → href): a count opens the task list filtered to exactly its tasks. */
export type Drill = Record<string, Record<string, string>>;

export type FigureTable = { title: string; columns: Column[]; rows: FigureRow[]; drill: Drill };

/** num / den, or null when nothing was measured (a rate of nothing is undefined, not zero). */
export const rate = (num: number, den: number): number | null => (den === 0 ? null : num / den);

export const text = (key: string, label: string): Column => ({ key, label, kind: "text" });
export const count = (key: string, label: string): Column => ({ key, label, kind: "count" });
export const rateColumn = (key: string, label: string): Column => ({ key, label, kind: "rate" });
export const number = (key: string, label: string): Column => ({ key, label, kind: "number" });
