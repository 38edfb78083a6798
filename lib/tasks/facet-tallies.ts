import type { Db } from "../db/client";
import { logFailure } from "../errors/log-failure";
import { raw, sql, type SqlFragment } from "../db/sql";
import { FACET_COLUMNS, REVIEW_COLUMNS } from "./task-list-sql";

// Pre-counted facets. Triggers on tasks append signed counts per combination of a tally's
// columns to its table, in the same transaction as the change, so a reader sees exactly the
// tasks its snapshot sees: per the six facet columns (task_facet_tallies, migration
// 20261205040000), per repository and those (task_repository_tallies, 20261207100000), per
// those and the three review columns, and per repository, status and the review columns
// (task_review_tallies and task_review_repository_tallies, 20261207180000). Summing a tally's
// rows gives what counting every task gives, from thousands of rows instead of a million.
// Appends pile up (a decision adds two rows to each), so a read that finds many folds them.

/** A tally table: the columns its rows are counted per (besides `n`); a task's repository is its environment's. */
export type Tally = { table: string; columns: readonly string[] };

/** The six facet columns, as the migrations' triggers tally them. */
const FACETS = Object.values(FACET_COLUMNS).map((facet) => facet.column);
const REVIEW = Object.values(REVIEW_COLUMNS);

export const FACET_TALLY: Tally = { table: "task_facet_tallies", columns: FACETS };
export const REPOSITORY_TALLY: Tally = { table: "task_repository_tallies", columns: ["repository_id", ...FACETS] };
const REVIEW_TALLY: Tally = { table: "task_review_tallies", columns: [...FACETS, ...REVIEW] };
const REVIEW_REPOSITORY_TALLY: Tally = {
  table: "task_review_repository_tallies",
  columns: ["repository_id", FACET_COLUMNS.status.column, ...REVIEW],
};

const TALLIES = [FACET_TALLY, REVIEW_REPOSITORY_TALLY, REPOSITORY_TALLY, REVIEW_TALLY];

/** What the facet counts may sum, fewest columns first: fewer columns, fewer combinations, fewer rows to sum. */
export const FACET_COUNT_TALLIES = [FACET_TALLY, REPOSITORY_TALLY, REVIEW_TALLY];
/**
 * What the top repositories sum when it counts per every filter set. The repository tally is
 * not among them: at a million tasks it holds a row per four tasks, and counting the tasks
 * through the facet index (a skip scan over its leading columns reads only the matching
 * entries) is faster when fewer tasks pass than it has rows (task-facets.ts chooses).
 */
export const REPOSITORY_COUNT_TALLIES = [REVIEW_REPOSITORY_TALLY];

/** The first of `tallies` counted per all of `columns`, or undefined when none is (the tasks are counted instead). */
export const tallyHaving = (tallies: readonly Tally[], columns: readonly string[]): Tally | undefined =>
  tallies.find((tally) => columns.every((column) => tally.columns.includes(column)));

/** A read folds a tally once it holds this many rows more than its last fold left (a fold of this many takes a few milliseconds). */
export const FOLD_AT_ROWS = 20_000;

/** The tally's columns as a select list over tasks `t` and their environments `e`. */
const ofTasks = ({ columns }: Tally) =>
  columns.map((column) => (column === "repository_id" ? "e.repository_id" : `t.${column}`)).join(", ");

/** The tasks in `tasks` (a subquery of ids) per the tally's columns, counted negative: rows to subtract from it. */
export const lessTasks = (tally: Tally, tasks: SqlFragment): SqlFragment =>
  sql`SELECT ${raw(ofTasks(tally))}, -count(*) AS n FROM tasks t JOIN environments e ON e.id = t.environment_id
      WHERE t.id IN (${tasks}) GROUP BY ${raw(ofTasks(tally))}`;

/**
 * The tasks per combination of the tally's columns, with the same columns and `n` as counting
 * the tasks; `less` adds rows to subtract (the tasks a reader is blind on, counted negative).
 * `where` (over the tally's columns, as `t.`) keeps some rows; `per` sums them per fewer columns.
 */
export function talliedCombinations(
  tally: Tally,
  less: SqlFragment | null,
  { where, per = tally.columns }: { where?: SqlFragment; per?: readonly string[] } = {},
): SqlFragment {
  const minus = less ? sql` UNION ALL ${less}` : sql``;
  const kept = where ? sql` WHERE ${where}` : sql``;
  const columns = raw(tally.columns.join(", "));
  const summed = raw(per.join(", "));
  return sql`SELECT ${summed}, sum(n) AS n FROM (SELECT ${columns}, n FROM ${raw(tally.table)}${minus}) t${kept} GROUP BY ${summed} HAVING sum(n) <> 0`;
}

/**
 * About how many rows a tally holds, from the statistics' live row count: whether the next read
 * should fold it. Counting them would read the whole table: 35 ms a read for the repository
 * tally at a million tasks, more than summing the few rows a filter keeps.
 */
export const tallyRows = ({ table }: Tally): SqlFragment =>
  raw(`SELECT pg_stat_get_live_tuples('${table}'::regclass)::int`);

/** Rows each tally held after its last fold in this process: a tally of many combinations is not folded on every read. */
const rowsAfterFold = new Map<string, number>();

/**
 * Replaces a table's rows with one row per combination, in one statement. Its DELETE takes the
 * rows its snapshot sees; a transaction that appends meanwhile commits rows it did not see,
 * which stay and count later. The advisory lock (held to the statement's end) keeps two folds
 * of one table from summing the same rows at once: the second does nothing.
 */
async function fold(db: Db, { table, columns }: Tally): Promise<void> {
  const list = raw(columns.join(", "));
  const { text, values } = sql`
    WITH lock AS (SELECT pg_try_advisory_xact_lock(hashtext(${`${table}_fold`})) AS held),
    folded AS (DELETE FROM ${raw(table)} WHERE (SELECT held FROM lock) RETURNING ${list}, n)
    INSERT INTO ${raw(table)} (${list}, n)
    SELECT ${list}, sum(n) FROM folded GROUP BY ${list} HAVING sum(n) <> 0`.toQuery();
  const rows = await db.$executeRawUnsafe(text, ...values);
  if (rows > 0) rowsAfterFold.set(table, rows);
}

/** Folds every tally table. */
export async function foldFacetTallies(db: Db): Promise<void> {
  await Promise.all(TALLIES.map((tally) => fold(db, tally)));
}

/** Folds the tally a read found `rows` in, in the background: the read does not wait for it. */
export function foldTallyIfMany(db: Db, table: string, rows: number): void {
  const tally = TALLIES.find((t) => t.table === table);
  if (tally && rows > (rowsAfterFold.get(table) ?? 0) + FOLD_AT_ROWS)
    void fold(db, tally).catch(logFailure(`folding the task tally ${table}`));
}
