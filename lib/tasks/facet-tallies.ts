import type { Db } from "../db/client";
import { logFailure } from "../errors/log-failure";
import { raw, sql, type SqlFragment } from "../db/sql";
import { FACET_COLUMNS } from "./task-list-sql";

// Pre-counted facets. Triggers on tasks append signed counts per combination of the six facet
// columns to task_facet_tallies (migration 20261205040000_task_facet_tallies), and per
// repository and combination to task_repository_tallies (20261207100000), in the same
// transaction as the change, so a reader sees exactly the tasks its snapshot sees. Summing
// those rows gives what counting every task gives, from thousands of rows instead of a million.
// Appends pile up (a decision adds two rows to each), so a read that finds many folds them.

/** A tally table: the columns its rows are counted per (besides `n`). */
export type Tally = { table: string; columns: string };

/** The six facet columns, as the migrations' triggers tally them. */
const FACETS = Object.values(FACET_COLUMNS)
  .map((facet) => facet.column)
  .join(", ");

export const FACET_TALLY: Tally = { table: "task_facet_tallies", columns: FACETS };
export const REPOSITORY_TALLY: Tally = { table: "task_repository_tallies", columns: `repository_id, ${FACETS}` };

/** Past this many facet tally rows a read folds both tables (a fold of this many takes a few milliseconds). */
export const FOLD_AT_ROWS = 20_000;

/**
 * The tasks per combination of the tally's columns, with the same columns and `n` as counting
 * the tasks; `less` adds rows to subtract (the tasks a reader is blind on, counted negative).
 * `where` (over the tally's columns, as `t.`) keeps some rows; `per` sums them per fewer columns.
 */
export function talliedCombinations(
  tally: Tally,
  less: SqlFragment | null,
  { where, per = tally.columns }: { where?: SqlFragment; per?: string } = {},
): SqlFragment {
  const { table, columns } = tally;
  const minus = less ? sql` UNION ALL ${less}` : sql``;
  const kept = where ? sql` WHERE ${where}` : sql``;
  return sql`SELECT ${raw(per)}, sum(n) AS n FROM (SELECT ${raw(columns)}, n FROM ${raw(table)}${minus}) t${kept} GROUP BY ${raw(per)} HAVING sum(n) <> 0`;
}

/**
 * How many facet tally rows there are: whether the next read should fold. Both tables take a
 * row per combination a change touched, so they grow alike and one count tells for both.
 */
export const TALLY_ROWS: SqlFragment = raw(`SELECT count(*)::int FROM ${FACET_TALLY.table}`);

/**
 * Replaces a table's rows with one row per combination, in one statement. Its DELETE takes the
 * rows its snapshot sees; a transaction that appends meanwhile commits rows it did not see,
 * which stay and count later. The advisory lock (held to the statement's end) keeps two folds
 * of one table from summing the same rows at once: the second does nothing.
 */
async function fold(db: Db, { table, columns }: Tally): Promise<void> {
  const { text, values } = sql`
    WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtext(${`${table}_fold`})) AS held),
    folded AS (DELETE FROM ${raw(table)} WHERE (SELECT held FROM lock) RETURNING ${raw(columns)}, n)
    INSERT INTO ${raw(table)} (${raw(columns)}, n)
    SELECT ${raw(columns)}, sum(n) FROM folded GROUP BY ${raw(columns)} HAVING sum(n) <> 0`.toQuery();
  await db.$executeRawUnsafe(text, ...values);
}

/** Folds both tally tables. */
export async function foldFacetTallies(db: Db): Promise<void> {
  await Promise.all([fold(db, FACET_TALLY), fold(db, REPOSITORY_TALLY)]);
}

/** Folds the tallies in the background when a read found `rows` of them: the read does not wait for it. */
export function foldFacetTalliesIfMany(db: Db, rows: number): void {
  if (rows > FOLD_AT_ROWS) void foldFacetTallies(db).catch(logFailure("folding the task facet tallies"));
}
