import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client";

// Bulk inserts for the import hot path. Prisma's createMany sends one bind parameter per
// cell (8,000 for 500 tasks) and spent ~1.5 ms per task in the query compiler, far behind
// COPY; one JSON parameter expanded by json_populate_recordset goes through Postgres's C
// JSON parser instead (bench:import measures the difference). Table and column names
// here are constants from this module's callers, never input.

let counter = 0;

/** A collision-resistant id in the spirit of Prisma's cuid(): time, a counter and randomness. */
export function newId(): string {
  counter = (counter + 1) % 1_679_616;
  return `c${Date.now().toString(36)}${counter.toString(36).padStart(4, "0")}${randomBytes(6).toString("hex")}`;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Inserts rows (objects keyed by column name) into a table in one statement. Columns not
 * listed keep their database defaults. With `onConflict`, rows that collide on that unique
 * column are skipped, and the inserted rows' `returning` columns come back.
 */
export async function bulkInsert<R = Record<string, unknown>>(
  tx: Db,
  table: string,
  columns: readonly string[],
  rows: Record<string, unknown>[],
  options: { onConflict?: string; returning?: readonly string[] } = {},
): Promise<R[]> {
  if (!rows.length) return [];
  const list = columns.map(quote).join(", ");
  const conflict = options.onConflict ? ` on conflict (${quote(options.onConflict)}) do nothing` : "";
  const returning = options.returning?.length ? ` returning ${options.returning.map(quote).join(", ")}` : "";
  const sql = `insert into ${quote(table)} (${list}) select ${list} from json_populate_recordset(null::${quote(table)}, $1::json)${conflict}${returning}`;
  const payload = JSON.stringify(rows);
  if (returning) return tx.$queryRawUnsafe<R[]>(sql, payload);
  await tx.$executeRawUnsafe(sql, payload);
  return [];
}
