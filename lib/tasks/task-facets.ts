import type { Db } from "../db/client";
import { TaskFiltersSchema, type TaskFilters, type TaskFiltersInput } from "./task-filters";
import { FACET_COLUMNS, taskWhere, type FacetKey, type FilterContext } from "./task-list-sql";
import { raw, sql, type SqlFragment } from "./sql";
import { resolveSlice } from "../analytics/resolve-slice";

export type FacetCounts = Record<FacetKey, Record<string, number>>;
export type TaskFacets = { total: number; facets: FacetCounts; repositories: { repository: string; count: number }[] };

const FACET_KEYS = Object.keys(FACET_COLUMNS) as FacetKey[];
const NULL_VALUE = "NONE";
const TOP_REPOSITORIES = 30;

/** Counts per value for the facets whose own filter is not set, and the total, in one scan (GROUPING SETS). */
export function unfilteredFacetsSql(filters: TaskFilters, keys: FacetKey[], context: FilterContext): SqlFragment {
  const sets = [...keys.map((k) => `(t.${FACET_COLUMNS[k].column})`), "()"].join(", ");
  const columns = keys.map((k) => `t.${FACET_COLUMNS[k].column}::text AS "${k}", GROUPING(t.${FACET_COLUMNS[k].column}) AS "g_${k}"`);
  return sql`SELECT ${raw(columns.length ? columns.join(", ") + "," : "")} count(*)::int AS count
    FROM tasks t WHERE ${taskWhere(filters, context)}
    GROUP BY GROUPING SETS (${raw(sets)})`;
}

/** Counts per value of one facet under every other filter, so the values not chosen stay visible. */
function ownFacetSql(filters: TaskFilters, key: FacetKey, context: FilterContext): SqlFragment {
  const column = FACET_COLUMNS[key].column;
  return sql`SELECT t.${raw(column)}::text AS value, count(*)::int AS count FROM tasks t
    WHERE ${taskWhere(filters, context, key)} GROUP BY 1`;
}

/** Top repositories: counted per environment first (index-only), then summed per repository, not joined row by row. */
function repositoriesSql(filters: TaskFilters, context: FilterContext): SqlFragment {
  return sql`SELECT r.owner || '/' || r.name AS repository, sum(c.count)::int AS count FROM (
      SELECT t.environment_id, count(*) AS count FROM tasks t
      WHERE ${taskWhere({ ...filters, repository: [] }, context)} GROUP BY t.environment_id
    ) c JOIN environments e ON e.id = c.environment_id JOIN repositories r ON r.id = e.repository_id
    GROUP BY r.id, r.owner, r.name ORDER BY count DESC, repository LIMIT ${TOP_REPOSITORIES}`;
}

async function run<T>(db: Db, fragment: SqlFragment): Promise<T[]> {
  const { text, values } = fragment.toQuery();
  return db.$queryRawUnsafe<T[]>(text, ...values);
}

/** Facet counts for the task list: how many tasks each filter value would show. */
export async function taskFacets(db: Db, input: TaskFiltersInput | TaskFilters, context: FilterContext = {}): Promise<TaskFacets> {
  const filters = TaskFiltersSchema.parse(input);
  if (filters.slice && !context.slice) context = { ...context, slice: await resolveSlice(db, filters.slice) };
  const filtered = FACET_KEYS.filter((k) => filters[k].length > 0);
  const unfiltered = FACET_KEYS.filter((k) => filters[k].length === 0);
  const facets = Object.fromEntries(FACET_KEYS.map((k) => [k, {}])) as FacetCounts;

  const [grouped, own, repositories] = await Promise.all([
    run<Record<string, string | number | null>>(db, unfilteredFacetsSql(filters, unfiltered, context)),
    Promise.all(filtered.map((k) => run<{ value: string | null; count: number }>(db, ownFacetSql(filters, k, context)))),
    run<{ repository: string; count: number }>(db, repositoriesSql(filters, context)),
  ]);

  let total = 0;
  for (const row of grouped) {
    const groupedBy = unfiltered.find((k) => Number(row[`g_${k}`]) === 0);
    if (!groupedBy) total = Number(row.count);
    else facets[groupedBy][String(row[groupedBy] ?? NULL_VALUE)] = Number(row.count);
  }
  filtered.forEach((k, i) => {
    for (const row of own[i]) facets[k][row.value ?? NULL_VALUE] = Number(row.count);
  });
  return { total, facets, repositories: repositories.map((r) => ({ repository: r.repository, count: Number(r.count) })) };
}
