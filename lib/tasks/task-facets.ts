import type { Db } from "../db/client";
import { TaskFiltersSchema, type TaskFilters, type TaskFiltersInput } from "./task-filters";
import {
  FACET_COLUMNS,
  facetCondition,
  taskConditions,
  taskWhere,
  type FacetKey,
  type FilterContext,
} from "./task-list-sql";
import { foldFacetTalliesIfMany, talliedCombinations, TALLY_ROWS } from "./facet-tallies";
import { allOf, joinSql, raw, sql, type SqlFragment } from "../db/sql";

export type FacetCounts = Record<FacetKey, Record<string, number>>;
export type TaskFacets = { total: number; facets: FacetCounts; repositories: { repository: string; count: number }[] };

const FACET_KEYS = Object.keys(FACET_COLUMNS) as FacetKey[];
const COLUMNS = FACET_KEYS.map((key) => `t.${FACET_COLUMNS[key].column}`).join(", ");
const NULL_VALUE = "NONE";
const TOP_REPOSITORIES = 30;
/** The row of the facet statement that says how many tally rows it summed (when it read the tallies). */
const TALLY_ROWS_FACET = "tally_rows";

/** The tasks that pass `where` and that the reader is blind on (`hidden`), per `columns`, counted negative. */
const lessHidden = (columns: string, where: SqlFragment, hidden: SqlFragment) =>
  sql`SELECT ${raw(columns)}, -count(*) AS n FROM tasks t WHERE ${where} AND t.id IN (${hidden}) GROUP BY ${raw(columns)}`;

/**
 * The tasks that pass `where` per `columns` (and `n`), for a reader blind on some: counted as
 * if they saw every task, less the ones they are blind on (few). With no blindness in the scan,
 * an index without the task id (the facet or the environment index) can answer alone.
 */
function countsPer(columns: string, where: SqlFragment, hidden: SqlFragment | null | undefined): SqlFragment {
  const counted = sql`SELECT ${raw(columns)}, count(*) AS n FROM tasks t WHERE ${where} GROUP BY ${raw(columns)}`;
  return hidden ? sql`${counted} UNION ALL ${lessHidden(columns, where, hidden)}` : counted;
}

/**
 * Every facet's counts and the total, in two steps. First the matching tasks are counted per
 * combination of the six facet columns, with every filter but the facets' own (the search
 * and the like: the costly part, one scan, one hash key per row; a few thousand
 * combinations however many tasks match). Then each facet sums those combinations that pass
 * the other facets' filters (GROUPING SETS over the combinations), so its own unchosen values
 * stay visible, and the total sums those that pass them all.
 */
export function facetCountsSql(filters: TaskFilters, context: FilterContext = {}): SqlFragment {
  const conditions = Object.fromEntries(FACET_KEYS.map((key) => [key, facetCondition(filters, key)])) as Record<
    FacetKey,
    SqlFragment | null
  >;
  const sumUnder = (except: FacetKey | null) => {
    const others = FACET_KEYS.filter((key) => key !== except && conditions[key]).map((key) => conditions[key]!);
    return others.length ? sql`sum(t.n) FILTER (WHERE ${allOf(others)})` : raw("sum(t.n)");
  };
  const groupedBy = (key: FacetKey) => raw(`GROUPING(t.${FACET_COLUMNS[key].column}) = 0`);
  const hidden = context.hiddenTasks;
  const others = taskConditions(filters, { ...context, hiddenTasks: null }, FACET_KEYS);
  // with no filter but the facets' own, the pre-counted combinations give the same numbers without reading every task
  const combinations = others.length
    ? countsPer(COLUMNS, allOf(others), hidden)
    : talliedCombinations(hidden ? lessHidden(COLUMNS, raw("TRUE"), hidden) : null);
  const tallyRows = others.length
    ? sql``
    : sql`UNION ALL SELECT ${raw(`'${TALLY_ROWS_FACET}'`)}, NULL, (${TALLY_ROWS})`;
  return sql`
    WITH combinations AS (${combinations})
    SELECT CASE ${joinSql(
      FACET_KEYS.map((key) => sql`WHEN ${groupedBy(key)} THEN ${raw(`'${key}'`)}`),
      " ",
    )} ELSE 'total' END AS facet,
           CASE ${joinSql(
             FACET_KEYS.map((key) => sql`WHEN ${groupedBy(key)} THEN ${raw(`t.${FACET_COLUMNS[key].column}::text`)}`),
             " ",
           )} END AS value,
           coalesce(CASE ${joinSql(
             FACET_KEYS.map((key) => sql`WHEN ${groupedBy(key)} THEN ${sumUnder(key)}`),
             " ",
           )} ELSE ${sumUnder(null)} END, 0)::int AS count
    FROM combinations t
    GROUP BY GROUPING SETS (${raw(FACET_KEYS.map((key) => `(t.${FACET_COLUMNS[key].column})`).join(", "))}, ())
    ${tallyRows}`;
}

/** Top repositories under every filter but the repository filter: counted per environment (one hash key), then summed per repository. */
export function repositoryCountsSql(filters: TaskFilters, context: FilterContext = {}): SqlFragment {
  return sql`SELECT r.owner || '/' || r.name AS repository, sum(c.n)::int AS count FROM (
      ${countsPer("t.environment_id", taskWhere(filters, { ...context, hiddenTasks: null }, ["repository"]), context.hiddenTasks)}
    ) c JOIN environments e ON e.id = c.environment_id JOIN repositories r ON r.id = e.repository_id
    GROUP BY r.id, r.owner, r.name HAVING sum(c.n) > 0 ORDER BY count DESC, repository LIMIT ${TOP_REPOSITORIES}`;
}

async function run<T>(db: Db, fragment: SqlFragment): Promise<T[]> {
  const { text, values } = fragment.toQuery();
  return db.$queryRawUnsafe<T[]>(text, ...values);
}

type FacetRow = { facet: FacetKey | "total" | typeof TALLY_ROWS_FACET; value: string | null; count: number };

/** Facet counts for the task list: how many tasks each filter value would show. */
export async function taskFacets(
  db: Db,
  input: TaskFiltersInput | TaskFilters,
  context: FilterContext = {},
): Promise<TaskFacets> {
  const filters = TaskFiltersSchema.parse(input);
  const [rows, repositories] = await Promise.all([
    run<FacetRow>(db, facetCountsSql(filters, context)),
    run<{ repository: string; count: number }>(db, repositoryCountsSql(filters, context)),
  ]);
  const result: TaskFacets = {
    total: 0,
    facets: Object.fromEntries(FACET_KEYS.map((k) => [k, {}])) as FacetCounts,
    repositories,
  };
  for (const { facet, value, count } of rows) {
    if (facet === TALLY_ROWS_FACET) foldFacetTalliesIfMany(db, count);
    else if (facet === "total") result.total = count;
    // a value that no task shows under the other filters is left out, as before the sums
    else if (count > 0) result.facets[facet][value ?? NULL_VALUE] = count;
  }
  return result;
}
