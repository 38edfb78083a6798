import type { Db } from "../db/client";
import { logFailure } from "../errors/log-failure";
import { raw, sql, type SqlFragment } from "../db/sql";
import { FACET_COLUMNS } from "./task-list-sql";

// Pre-counted facets. Triggers on tasks (migration 20261205040000_task_facet_tallies) append
// signed counts per combination of the six facet columns to task_facet_tallies, in the same
// transaction as the change, so a reader sees exactly the tasks its snapshot sees. Summing
// those rows gives what counting every task gives, from a few thousand rows instead of
// 100,000. Appends pile up (a decision adds two rows), so a read that finds many folds them.

/** The six facet columns, as the migration's triggers tally them. */
const COLUMNS = Object.values(FACET_COLUMNS)
  .map((facet) => facet.column)
  .join(", ");

/** Past this many rows a read folds the tallies (a fold of this many takes a few milliseconds). */
export const FOLD_AT_ROWS = 20_000;

/**
 * The tasks per combination of facet columns, with the same columns and `n` as counting the
 * tasks table; `less` adds rows to subtract (the tasks a reader is blind on, counted negative).
 */
export function talliedCombinations(less: SqlFragment | null): SqlFragment {
  const minus = less ? sql` UNION ALL ${less}` : sql``;
  return sql`SELECT ${raw(COLUMNS)}, sum(n) AS n FROM (SELECT ${raw(COLUMNS)}, n FROM task_facet_tallies${minus}) c GROUP BY ${raw(COLUMNS)} HAVING sum(n) <> 0`;
}

/** How many tally rows there are: whether the next read should fold them. */
export const TALLY_ROWS: SqlFragment = raw("SELECT count(*)::int FROM task_facet_tallies");

/**
 * Replaces the tally rows with one row per combination, in one statement. Its DELETE takes the
 * rows its snapshot sees; a transaction that appends meanwhile commits rows it did not see,
 * which stay and count later. The advisory lock (held to the statement's end) keeps two folds
 * from summing the same rows at once: the second does nothing.
 */
export async function foldFacetTallies(db: Db): Promise<void> {
  const { text } = sql`
    WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtext('task_facet_tallies_fold')) AS held),
    folded AS (DELETE FROM task_facet_tallies WHERE (SELECT held FROM lock) RETURNING ${raw(COLUMNS)}, n)
    INSERT INTO task_facet_tallies (${raw(COLUMNS)}, n)
    SELECT ${raw(COLUMNS)}, sum(n) FROM folded GROUP BY ${raw(COLUMNS)} HAVING sum(n) <> 0`.toQuery();
  await db.$executeRawUnsafe(text);
}

/** Folds the tallies in the background when a read found `rows` of them: the read does not wait for it. */
export function foldFacetTalliesIfMany(db: Db, rows: number): void {
  if (rows > FOLD_AT_ROWS) void foldFacetTallies(db).catch(logFailure("folding the task facet tallies"));
}
