import type { Db } from "../db/client";
import { TaskFiltersSchema, type TaskFilters, type TaskFiltersInput } from "./task-filters";
import {
  FACET_COLUMNS,
  facetCondition,
  searchMatchesCte,
  taskConditions,
  reviewConditions,
  searchCondition,
  type FacetKey,
  type FilterContext,
  type OmittedFilter,
} from "./task-list-sql";
import {
  FACET_COUNT_TALLIES,
  FACET_TALLY,
  foldTallyIfMany,
  lessTasks,
  REPOSITORY_COUNT_TALLIES,
  REPOSITORY_TALLY,
  talliedCombinations,
  tallyHaving,
  tallyRows,
  type Tally,
} from "./facet-tallies";
import { allOf, joinSql, queryRows, raw, sql, type SqlFragment } from "../db/sql";

export type FacetCounts = Record<FacetKey, Record<string, number>>;
export type TaskFacets = { total: number; facets: FacetCounts; repositories: { repository: string; count: number }[] };

const FACET_KEYS = Object.keys(FACET_COLUMNS) as FacetKey[];
const FACET_COLUMN_LIST = FACET_KEYS.map((key) => FACET_COLUMNS[key].column);
const COLUMNS = FACET_KEYS.map((key) => `t.${FACET_COLUMNS[key].column}`).join(", ");
const NULL_VALUE = "NONE";
const TOP_REPOSITORIES = 30;
/** The row of the facet statement that names the tally it summed and its row count (when it read one). */
const TALLY_ROWS_FACET = "tally_rows";

/** The tasks that pass `where` and that the reader is blind on (`hidden`), per `columns`, counted negative. */
const lessHidden = (columns: string, where: SqlFragment, hidden: SqlFragment) =>
  sql`SELECT ${raw(columns)}, -count(*) AS n FROM tasks t WHERE ${where} AND t.id IN (${hidden}) GROUP BY ${raw(columns)}`;

/** The repository tallies' rows of the "owner/name" repositories. */
const ofRepositories = (repositories: readonly string[]) =>
  sql`t.repository_id IN (SELECT r.id FROM repositories r WHERE (r.owner || '/' || r.name) = ANY(${repositories}::text[]))`;

/**
 * The repository (unless omitted) and review filters as conditions over a tally's columns, with
 * the columns they read: the filters a tally can answer. Null when a filter no tally counts per
 * is set besides them and the omitted ones (`untallied`: a search, labels, dates…).
 */
function talliedFilters(filters: TaskFilters, untallied: SqlFragment[], omit: readonly OmittedFilter[]) {
  if (untallied.length) return null;
  return [
    ...(!omit.includes("repository") && filters.repository.length
      ? [{ column: "repository_id", condition: ofRepositories(filters.repository) }]
      : []),
    ...reviewConditions(filters),
  ];
}

/** The facets' own filters that are set, each with its column. */
const chosenFacetFilters = (filters: TaskFilters) =>
  FACET_KEYS.flatMap((key) => {
    const condition = facetCondition(filters, key);
    return condition ? [{ column: FACET_COLUMNS[key].column, condition }] : [];
  });

/**
 * The first of `tallies` that answers a count per `per` under `tallied` (and the reader's
 * blindness, subtracted), or null when none has every column.
 */
function fromTally(
  tallies: readonly Tally[],
  per: readonly string[],
  tallied: { column: string; condition: SqlFragment }[] | null,
  hidden: SqlFragment | null | undefined,
): { tally: Tally; combinations: SqlFragment } | null {
  if (!tallied) return null;
  const tally = tallyHaving(tallies, [...per, ...tallied.map(({ column }) => column)]);
  if (!tally) return null;
  const kept = tallied.map(({ condition }) => condition);
  return {
    tally,
    combinations: talliedCombinations(tally, hidden ? lessTasks(tally, hidden) : null, {
      where: kept.length ? allOf(kept) : undefined,
      per,
    }),
  };
}

/**
 * The tasks that pass `where` per `columns` (and `n`), for a reader blind on some: counted as
 * if they saw every task, less the ones they are blind on (few). With no blindness in the scan,
 * an index without the task id (the facet or the environment index) can answer alone. With
 * `among`, the rows of the `matches` CTE that pass it are counted instead of the tasks (the
 * search is the one filter in `where` besides `among`'s).
 */
function countsPer(
  columns: string,
  where: SqlFragment,
  hidden: SqlFragment | null | undefined,
  among: SqlFragment | null = null,
): SqlFragment {
  const counted = among
    ? sql`SELECT ${raw(columns)}, count(*) AS n FROM matches t WHERE ${among} GROUP BY ${raw(columns)}`
    : sql`SELECT ${raw(columns)}, count(*) AS n FROM tasks t WHERE ${where} GROUP BY ${raw(columns)}`;
  return hidden ? sql`${counted} UNION ALL ${lessHidden(columns, where, hidden)}` : counted;
}

/** What the `matches` CTE keeps of each match when they are counted alone: what the counts group by. */
const COUNTED_OF_MATCHES = `t.id, ${COLUMNS}, t.environment_id`;

/**
 * What a count applies besides the filters of `omit`: `others`, the conditions on the tasks (the
 * reader's blindness is subtracted apart, so the scan carries no task id; a search tests the
 * `matches` CTE); `tallyConditions`, the same filters over a tally's columns, when a tally can answer;
 * and the `matches` CTE of a search. It keeps each match's id, or, when the search is the one
 * filter (`alone`), what the counts group by, so the matches are counted alone: found again
 * among every task instead (a hash semi-join on the id), a word 40 % of a million tasks
 * contain took 1.2 s more than finding them.
 */
function countedFilters(filters: TaskFilters, context: FilterContext, omit: readonly OmittedFilter[]) {
  const searching = searchCondition(filters.q) !== null;
  const counted: FilterContext = { ...context, hiddenTasks: null, searchInMatches: searching };
  const others = taskConditions(filters, counted, omit);
  const untallied = taskConditions(filters, counted, [...omit, "repository", "review"]);
  const alone = searching && others.length === 1;
  return {
    others,
    alone,
    tallyConditions: talliedFilters(filters, untallied, omit),
    cte: searchMatchesCte(filters.q, alone ? COUNTED_OF_MATCHES : "t.id"),
  };
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
  const { others, alone, tallyConditions, cte: matches } = countedFilters(filters, context, FACET_KEYS);
  const tallied = fromTally(FACET_COUNT_TALLIES, FACET_COLUMN_LIST, tallyConditions, hidden);
  const combinations = tallied?.combinations ?? countsPer(COLUMNS, allOf(others), hidden, alone ? raw("TRUE") : null);
  const rowCount = tallied
    ? sql`UNION ALL SELECT ${raw(`'${TALLY_ROWS_FACET}'`)}, ${tallied.tally.table}, (${tallyRows(tallied.tally)})`
    : sql``;
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
    ${rowCount}`;
}

/**
 * Top repositories under every filter but the repository filter: summed from a tally when one
 * counts per repository and every filter set, else counted per environment (one hash key), then
 * summed per repository. A tally read adds a row (no repository) with the tally's row count.
 */
export function repositoryCountsSql(filters: TaskFilters, context: FilterContext = {}): SqlFragment {
  const hidden = context.hiddenTasks;
  const {
    others,
    alone,
    tallyConditions,
    cte: matches,
  } = countedFilters(filters, context, [...FACET_KEYS, "repository"]);
  const facets = chosenFacetFilters(filters);
  const tallied =
    fromTally(
      REPOSITORY_COUNT_TALLIES,
      ["repository_id"],
      tallyConditions && [...facets, ...tallyConditions],
      hidden,
    ) ?? (others.length ? null : fromTally([REPOSITORY_TALLY], ["repository_id"], facets, hidden));
  const facetConditions = facets.map(({ condition }) => condition);
  const where = allOf([...others, ...facetConditions]);
  const among = alone ? allOf(facetConditions) : null;
  const counted = sql`SELECT e.repository_id, sum(c.n) AS n FROM (
        ${countsPer("t.environment_id", where, hidden, among)}
      ) c JOIN environments e ON e.id = c.environment_id GROUP BY e.repository_id`;
  const perRepository = !tallied
    ? counted
    : tallied.tally === REPOSITORY_TALLY
      ? fewerRowsRead(facets, tallied.combinations, counted)
      : tallied.combinations;
  const rowCount = tallied ? sql` UNION ALL SELECT NULL, (${tallyRows(tallied.tally)}), ${tallied.tally.table}` : sql``;
  return sql`${matches ? sql`WITH ${matches} ` : sql``}(SELECT r.owner || '/' || r.name AS repository, c.n::int AS count, NULL AS tally FROM (${perRepository}) c
    JOIN repositories r ON r.id = c.repository_id
    WHERE c.n > 0 ORDER BY count DESC, repository LIMIT ${TOP_REPOSITORIES})${rowCount}`;
}

/**
 * The top repositories under the facets' own filters alone: summed from the repository tally
 * (`tallied`) or counted through the facet index (`counted`), whichever reads fewer rows, the
 * tally's or the tasks' that pass (the facet tally sums those exactly, in a millisecond). At a
 * million tasks the tally holds 253,000 rows: "verdict valid" (450,000 tasks) summed it in 83 ms
 * against 200 ms counted, "invalid: tests did not run" (86,000) was counted in 31 ms against
 * 113 ms summed. Both are in the statement; a one-time filter runs one.
 */
function fewerRowsRead(facets: { condition: SqlFragment }[], tallied: SqlFragment, counted: SqlFragment) {
  const passing = sql`(SELECT coalesce(sum(t.n), 0) FROM ${raw(FACET_TALLY.table)} t WHERE ${allOf(facets.map(({ condition }) => condition))})`;
  const fromTally = sql`(${passing} > (${tallyRows(REPOSITORY_TALLY)}))`;
  return sql`SELECT * FROM (${tallied}) a WHERE ${fromTally} UNION ALL SELECT * FROM (${counted}) b WHERE NOT ${fromTally}`;
}

/** A facet count, or (facet `tally_rows`) the tally read and its row count. */
type FacetRow = { facet: FacetKey | "total" | typeof TALLY_ROWS_FACET; value: string | null; count: number };
/** A repository's count, or (`tally` set) the tally read and its row count. */
type RepositoryRow = { repository: string | null; count: number; tally: string | null };

/** Facet counts for the task list: how many tasks each filter value would show. */
export async function taskFacets(
  db: Db,
  input: TaskFiltersInput | TaskFilters,
  context: FilterContext = {},
): Promise<TaskFacets> {
  const filters = TaskFiltersSchema.parse(input);
  const [rows, repositoryRows] = await Promise.all([
    queryRows<FacetRow>(db, facetCountsSql(filters, context)),
    queryRows<RepositoryRow>(db, repositoryCountsSql(filters, context)),
  ]);
  const repositories: TaskFacets["repositories"] = [];
  for (const { repository, count, tally } of repositoryRows) {
    if (tally !== null) foldTallyIfMany(db, tally, count);
    else repositories.push({ repository: repository!, count });
  }
  const result: TaskFacets = {
    total: 0,
    facets: Object.fromEntries(FACET_KEYS.map((k) => [k, {}])) as FacetCounts,
    repositories,
  };
  for (const { facet, value, count } of rows) {
    if (facet === TALLY_ROWS_FACET) foldTallyIfMany(db, value!, count);
    else if (facet === "total") result.total = count;
    // a value that no task shows under the other filters is left out, as before the sums
    else if (count > 0) result.facets[facet][value ?? NULL_VALUE] = count;
  }
  return result;
}
