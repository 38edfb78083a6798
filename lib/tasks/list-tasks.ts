import type { Db } from "../db/client";
import type { AutomatedVerdict, CurationStatus, Difficulty, FailureClass, TaskKind, TaskSource } from "../db/enums";
import {
  decodeCursor,
  encodeCursor,
  TaskListQuerySchema,
  type TaskListQuery,
  type TaskListQueryInput,
} from "./task-filters";
import {
  cursorCondition,
  cursorFor,
  searchCondition,
  searchMatchesCte,
  searchTerms,
  taskOrderBy,
  taskWhere,
  textSearchQuery,
  type FilterContext,
} from "./task-list-sql";
import { queryRows, raw, sql, type SqlFragment } from "../db/sql";
import { AppError } from "../errors/app-error";

export { TaskListQuerySchema as ListTasksQuerySchema };
export type ListTasksQuery = TaskListQuery;

/** Characters of the problem statement shown in a list row. */
const EXCERPT_LENGTH = 180;

export type TaskListItem = {
  id: string;
  instanceId: string;
  excerpt: string;
  source: TaskSource;
  kind: TaskKind;
  difficulty: Difficulty | null;
  curationStatus: CurationStatus;
  automatedVerdict: AutomatedVerdict;
  verdictOverride: AutomatedVerdict | null;
  failureClass: FailureClass | null;
  labels: string[];
  version: number;
  repository: string;
  environmentKey: string;
  assigneeName: string | null;
  decisionCount: number;
  createdAt: Date;
  updatedAt: Date;
};

/** ranked: ordered by full-text rank (a "best match" search with few enough matches), else by the sort. */
export type TaskListPage = { items: TaskListItem[]; nextCursor: string | null; limit: number; ranked: boolean };

type Row = Omit<TaskListItem, "decisionCount" | "labels"> & {
  decisionCount: number | bigint;
  labels: string[] | null;
  exactRank: number;
  rank: number;
};

/**
 * Ranking reads every match's search vector (from TOAST): cheap for a few hundred matches,
 * seconds for a word half the tasks contain. Past this many matches a "best match" search
 * lists newest first instead, and the page says so (ranked: false).
 */
export const RANK_LIMIT = 500;
const RANK_CURSOR = "rank:";

/** A search that is one term may be an instance id typed or pasted whole: that task is listed first. */
const exactInstanceId = (query: TaskListQuery) => {
  const terms = searchTerms(query.q);
  return terms.length === 1 ? terms[0] : null;
};

/** Whether the list may be ordered by full-text rank: "best match" with words to rank. */
const rankable = (query: TaskListQuery) => query.sort === "relevance" && textSearchQuery(query.q) !== null;

/** Counts the matches up to RANK_LIMIT + 1: whether ranking them all stays cheap. */
export function rankCheckSql(query: TaskListQuery, context: FilterContext = {}): SqlFragment | null {
  if (!rankable(query) || query.cursor) return null;
  return sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM tasks t WHERE ${taskWhere(query, context)} LIMIT ${RANK_LIMIT + 1}) m`;
}

function rankedCursorCondition(rank: SqlFragment, cursor: string): SqlFragment {
  const decoded = decodeCursor(cursor);
  const value = decoded?.[0]?.startsWith(RANK_CURSOR) ? Number(decoded[0].slice(RANK_CURSOR.length)) : NaN;
  if (!decoded || !Number.isFinite(value))
    throw new AppError("BAD_REQUEST", "The page cursor is not valid; reload the list from the first page");
  return sql`(${rank}, t.id) < (${value}::real, ${decoded[1]})`;
}

/**
 * How a page is read. `ranked`: ordered by full-text rank. `matchesFirst`: the search's matches
 * are found through its indexes first, then filtered and ordered; otherwise the sort's index is
 * walked and each task tested against the search, which reads its search vector from TOAST
 * (EXPLAIN ANALYZE at 1,000,000 tasks: 14,800 tasks tested, 420 ms, for the 51 of a word 0.3 %
 * of them contain). Walking wins when matches are dense, finding them first when they are sparse.
 */
export type ListPlan = { ranked: boolean; matchesFirst: boolean };

/**
 * The statement behind one page: exported so the benchmark times exactly this SQL. When the
 * search is one term, the task whose instance id is that term comes first on the first page
 * (exactRank 0), in the same round trip; the ordinary pages leave it out, so the keyset
 * cursor stays whole. `ranked` orders the rest by full-text rank (ts_rank), best first.
 */
export function listTasksSql(
  query: TaskListQuery,
  context: FilterContext = {},
  { ranked, matchesFirst }: ListPlan = { ranked: false, matchesFirst: false },
): SqlFragment {
  // the matching tasks whole, so the page is filtered and ordered among them without going back
  // to the tasks table for each (EXPLAIN ANALYZE at 1M: 4,041 index lookups, 20 ms of 45)
  const cte = matchesFirst ? searchMatchesCte(query.q, "t.*") : null;
  const matches = cte ? sql`WITH ${cte}` : sql``;
  const from = raw(cte ? "matches t" : "tasks t");
  const where = taskWhere(cte ? { ...query, q: undefined } : query, context);
  const rank = ranked
    ? sql`ts_rank(t.search_vector, to_tsquery('simple', ${textSearchQuery(query.q)}))`
    : raw("0::real");
  const after = !query.cursor
    ? null
    : ranked
      ? rankedCursorCondition(rank, query.cursor)
      : cursorCondition(query.sort, query.cursor);
  const exact = exactInstanceId(query);
  const ordinary = sql`
      SELECT t.*, 1 AS exact_rank, ${rank} AS rank FROM ${from}
      WHERE ${where} ${exact === null ? sql`` : sql`AND t.instance_id <> ${exact}`} ${after ? sql`AND ${after}` : sql``}
      ORDER BY ${ranked ? sql`${rank} DESC, t.id DESC` : taskOrderBy(query.sort)}
      LIMIT ${query.limit + 1}`;
  const pageRows =
    exact === null || query.cursor
      ? ordinary
      : sql`(SELECT t.*, 0 AS exact_rank, 0::real AS rank FROM ${from} WHERE ${where} AND t.instance_id = ${exact} LIMIT 1) UNION ALL (${ordinary})`;
  // ask for one row more than the page to know whether another page follows
  return sql`${matches}
    SELECT t.id, t.instance_id AS "instanceId", left(t.problem_statement, ${EXCERPT_LENGTH}) AS excerpt,
           t.source::text AS source, t.kind::text AS kind, t.difficulty::text AS difficulty,
           t.curation_status::text AS "curationStatus", t.automated_verdict::text AS "automatedVerdict",
           t.verdict_override::text AS "verdictOverride", t.failure_class::text AS "failureClass",
           t.labels, t.version, t.created_at AS "createdAt", t.updated_at AS "updatedAt",
           er.key AS "environmentKey", er.repository, u.name AS "assigneeName",
           (SELECT count(*)::int FROM curation_decisions d WHERE d.task_id = t.id) AS "decisionCount",
           t.exact_rank AS "exactRank", t.rank
    FROM (${pageRows}) t
    -- OFFSET 0 keeps these per-row index lookups (a page is ≤ 501 rows) instead of hashing every environment
    LEFT JOIN LATERAL (
      SELECT e.key, (SELECT r.owner || '/' || r.name FROM repositories r WHERE r.id = e.repository_id) AS repository
      FROM environments e WHERE e.id = t.environment_id OFFSET 0
    ) er ON TRUE
    LEFT JOIN LATERAL (SELECT u.name FROM users u WHERE u.id = t.assignee_id OFFSET 0) u ON TRUE
    ORDER BY t.exact_rank, ${ranked ? raw("t.rank DESC, t.id DESC") : taskOrderBy(query.sort)}`;
}

/** A row as the API answers it: without the ordering columns, dates as dates, counts as numbers. */
function toListItem({ exactRank, rank, ...row }: Row): TaskListItem {
  return {
    ...row,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    labels: row.labels ?? [],
    decisionCount: Number(row.decisionCount),
  };
}

/** Sends a statement and resolves its rows: the endpoint's Prisma client, or a benchmark's own connection. */
export type RunSql = <T>(statement: SqlFragment) => Promise<T[]>;

/**
 * Past this many estimated matches a "best match" search is not counted before listing: the
 * capped count reads the search's whole GIN bitmap first (at 1,000,000 tasks, 50–100 ms for a word
 * 40 % of them contain, more than the page itself), only to learn there are too many to rank. Ten
 * times RANK_LIMIT is beyond the statistics' sampling error.
 */
export const SURELY_UNRANKABLE = 10 * RANK_LIMIT;

/**
 * A word no task contains. Postgres estimates every word its statistics do not know alike (at most
 * 0.5 % of the tasks, 2 % for any word when they hold under 100 words), so at a million tasks, or
 * on little data, a rare word's estimate can pass SURELY_UNRANKABLE: only an estimate well above
 * this word's comes from the statistics.
 */
const UNKNOWN_WORD = "qzxjvqzxjv";

/** Whether the capped count can change the answer: estimated few enough, or the estimate is not the statistics' own. */
const worthCounting = (filtered: number, unknownWord: number) =>
  filtered <= Math.max(SURELY_UNRANKABLE, 2 * unknownWord);

/** The planner's estimate of the tasks `where` keeps (from the statistics: no task is read). */
async function estimatedTasks(run: RunSql, where: SqlFragment): Promise<number> {
  const [{ "QUERY PLAN": plan }] = await run<{ "QUERY PLAN": { Plan: { "Plan Rows": number } }[] }>(
    sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM tasks t WHERE ${where}`,
  );
  return plan[0].Plan["Plan Rows"];
}

async function taskCount(run: RunSql): Promise<number> {
  const [{ tasks }] = await run<{ tasks: number }>(
    raw("SELECT greatest(reltuples, 0)::float8 AS tasks FROM pg_class WHERE oid = 'tasks'::regclass"),
  );
  return tasks;
}

/** Whether the page continues a ranked one (its cursor is a rank). */
const followsRankCursor = ({ cursor }: TaskListQuery) =>
  !!cursor && (decodeCursor(cursor)?.[0]?.startsWith(RANK_CURSOR) ?? false);

/** Whether the first page of a "best match" search has at most RANK_LIMIT matches, counted up to one more. */
async function fewEnoughToRank(run: RunSql, query: TaskListQuery, context: FilterContext): Promise<boolean> {
  const [{ n }] = await run<{ n: number }>(rankCheckSql(query, context)!);
  return n <= RANK_LIMIT;
}

/**
 * Whether to find the matches first. Testing a task on the walk costs about six times reading a
 * found match (both measured at 1M tasks), and the walk tests (page size) / (share matching)
 * tasks, so finding first is cheaper while matches ≤ √(6 × page × tasks): 17,500 of a million.
 */
export function sparseEnough(estimatedMatches: number, tasks: number, limit: number): boolean {
  return estimatedMatches <= Math.sqrt(6 * (limit + 1) * Math.max(tasks, 1));
}

/**
 * How to read the page (ListPlan). A later page of a ranked search follows its cursor. Otherwise
 * the planner's estimates are asked together, in one round trip: of the tasks the filters keep
 * and of a word no task contains (whether counting them for ranking is worth it), of the
 * search's matches and of all tasks.
 * Ranked pages read every match already, so they never need finding first.
 */
export async function planListRead(run: RunSql, query: TaskListQuery, context: FilterContext): Promise<ListPlan> {
  const search = searchCondition(query.q);
  if (!search) return { ranked: false, matchesFirst: false };
  const mayRank = rankable(query);
  if (mayRank && followsRankCursor(query)) return { ranked: true, matchesFirst: false };
  const counting = mayRank && !query.cursor;
  const [filtered, unknownWord, matches, tasks] = await Promise.all([
    counting ? estimatedTasks(run, taskWhere(query, context)) : 0,
    counting ? estimatedTasks(run, searchCondition(UNKNOWN_WORD)!) : 0,
    estimatedTasks(run, search),
    taskCount(run),
  ]);
  const ranked = counting && worthCounting(filtered, unknownWord) && (await fewEnoughToRank(run, query, context));
  return { ranked, matchesFirst: !ranked && sparseEnough(matches, tasks, query.limit) };
}

/** One page of tasks matching the filters, in the chosen order, with a cursor for the next page. */
export async function listTasks(
  db: Db,
  input: TaskListQueryInput | TaskListQuery,
  context: FilterContext = {},
): Promise<TaskListPage> {
  const query = TaskListQuerySchema.parse(input);
  const plan = await planListRead((statement) => queryRows(db, statement), query, context);
  const { ranked } = plan;
  const all = await queryRows<Row>(db, listTasksSql(query, context, plan));
  const exact = all.filter((row) => row.exactRank === 0);
  const rows = all.filter((row) => row.exactRank !== 0);
  const page = rows.slice(0, query.limit);
  const items = [...exact, ...page].map(toListItem);
  const last = page[page.length - 1];
  const cursor = !last
    ? null
    : ranked
      ? encodeCursor([`${RANK_CURSOR}${last.rank}`, last.id])
      : encodeCursor(
          cursorFor(query.sort, { ...last, createdAt: new Date(last.createdAt), updatedAt: new Date(last.updatedAt) }),
        );
  return { items, nextCursor: rows.length > query.limit ? cursor : null, limit: query.limit, ranked };
}
