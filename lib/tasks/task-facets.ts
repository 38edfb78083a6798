import type { Db } from "../db/client";
import { TaskFiltersSchema, type TaskFilters, type TaskFiltersInput } from "./task-filters";
import {
  FACET_COLUMNS,
  facetCondition,
  searchMatchesCte,
  taskConditions,
  taskWhere,
  type FacetKey,
  type FilterContext,
} from "./task-list-sql";
import {
  FACET_TALLY,
  foldFacetTalliesIfMany,
  REPOSITORY_TALLY,
  talliedCombinations,
  TALLY_ROWS,
} from "./facet-tallies";
import { allOf, joinSql, queryRows, raw, sql, type SqlFragment } from "../db/sql";

export type FacetCounts = Record<FacetKey, Record<string, number>>;
export type TaskFacets = { total: number; facets: FacetCounts; repositories: { repository: string; count: number }[] };

const FACET_KEYS = Object.keys(FACET_COLUMNS) as FacetKey[];
const FACETS = FACET_KEYS.map((key) => FACET_COLUMNS[key].column).join(", ");
const COLUMNS = FACET_KEYS.map((key) => `t.${FACET_COLUMNS[key].column}`).join(", ");
const NULL_VALUE = "NONE";
const TOP_REPOSITORIES = 30;
/** The row of the facet statement that says how many tally rows it summed (when it read the tallies). */
const TALLY_ROWS_FACET = "tally_rows";

/**
 * The filter context of a count: the tasks the reader is blind on are subtracted apart (so the
 * scan carries no task id), and a search tests the tasks against its `matches` CTE, when there is one.
 */
const unhidden = (context: FilterContext, matches: SqlFragment | null): FilterContext => ({
  ...context,
  hiddenTasks: null,
  searchInMatches: matches !== null,
});

/** The tasks that pass `where` and that the reader is blind on (`hidden`), per `columns`, counted negative. */
const lessHidden = (columns: string, where: SqlFragment, hidden: SqlFragment) =>
  sql`SELECT ${raw(columns)}, -count(*) AS n FROM tasks t WHERE ${where} AND t.id IN (${hidden}) GROUP BY ${raw(columns)}`;

/** The tasks the reader is blind on per repository and facet columns, counted negative (to subtract from the repository tallies). */
const lessHiddenPerRepository = (hidden: SqlFragment) =>
  sql`SELECT e.repository_id, ${raw(COLUMNS)}, -count(*) AS n FROM tasks t JOIN environments e ON e.id = t.environment_id
      WHERE t.id IN (${hidden}) GROUP BY e.repository_id, ${raw(COLUMNS)}`;

/** The repository tallies' rows of the "owner/name" repositories. */
const ofRepositories = (repositories: readonly string[]) =>
  sql`t.repository_id IN (SELECT r.id FROM repositories r WHERE (r.owner || '/' || r.name) = ANY(${repositories}::text[]))`;

/**
 * Where the facet counts come from: the facet tallies when no filter but the facets' own is set,
 * the repository tallies when a repository filter is the only other one, else the tasks
 * counted (with `others`, the filters that are not the facets' own).
 */
function facetCombinations(filters: TaskFilters, others: SqlFragment[], hidden: SqlFragment | null | undefined) {
  if (!others.length) return talliedCombinations(FACET_TALLY, hidden ? lessHidden(COLUMNS, raw("TRUE"), hidden) : null);
  if (onlyRepositoryFilter(filters, others))
    return talliedCombinations(REPOSITORY_TALLY, hidden ? lessHiddenPerRepository(hidden) : null, {
      where: ofRepositories(filters.repository),
      per: FACETS,
    });
  return countsPer(COLUMNS, allOf(others), hidden);
}

/** Whether the repository filter is the one filter among `others` (those that are not the facets' own). */
const onlyRepositoryFilter = (filters: TaskFilters, others: SqlFragment[]) =>
  others.length === 1 && filters.repository.length > 0;

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
  const matches = searchMatchesCte(filters.q);
  const others = taskConditions(filters, unhidden(context, matches), FACET_KEYS);
  const combinations = facetCombinations(filters, others, hidden);
  const tallyRows = others.length
    ? sql``
    : sql`UNION ALL SELECT ${raw(`'${TALLY_ROWS_FACET}'`)}, NULL, (${TALLY_ROWS})`;
  return sql`
    WITH ${matches ? sql`${matches}, ` : sql``}combinations AS (${combinations})
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

/**
 * Top repositories under every filter but the repository filter. With no filter but the facets'
 * own, summed from the repository tallies; else counted per environment (one hash key), then
 * summed per repository.
 */
export function repositoryCountsSql(filters: TaskFilters, context: FilterContext = {}): SqlFragment {
  const hidden = context.hiddenTasks;
  const matches = searchMatchesCte(filters.q);
  const counting = unhidden(context, matches);
  const others = taskConditions(filters, counting, [...FACET_KEYS, "repository"]);
  const perRepository = others.length
    ? sql`SELECT e.repository_id, sum(c.n) AS n FROM (
        ${countsPer("t.environment_id", taskWhere(filters, counting, ["repository"]), hidden)}
      ) c JOIN environments e ON e.id = c.environment_id GROUP BY e.repository_id`
    : talliedCombinations(REPOSITORY_TALLY, hidden ? lessHiddenPerRepository(hidden) : null, {
        where: allOf(FACET_KEYS.map((key) => facetCondition(filters, key)).filter((c) => c !== null)),
        per: "repository_id",
      });
  return sql`${matches ? sql`WITH ${matches} ` : sql``}SELECT r.owner || '/' || r.name AS repository, c.n::int AS count FROM (${perRepository}) c
    JOIN repositories r ON r.id = c.repository_id
    WHERE c.n > 0 ORDER BY count DESC, repository LIMIT ${TOP_REPOSITORIES}`;
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
    queryRows<FacetRow>(db, facetCountsSql(filters, context)),
    queryRows<{ repository: string; count: number }>(db, repositoryCountsSql(filters, context)),
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
