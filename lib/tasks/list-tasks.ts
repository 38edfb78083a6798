import type { Db } from "../db/client";
import type { AutomatedVerdict, CurationStatus, Difficulty, FailureClass, TaskKind, TaskSource } from "../db/enums";
import { encodeCursor, TaskListQuerySchema, type TaskListQuery, type TaskListQueryInput } from "./task-filters";
import { cursorCondition, cursorFor, searchTerms, taskOrderBy, taskWhere, type FilterContext } from "./task-list-sql";
import { sql, type SqlFragment } from "./sql";
import { resolveSlice } from "../analytics/resolve-slice";

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

export type TaskListPage = { items: TaskListItem[]; nextCursor: string | null; limit: number };

type Row = Omit<TaskListItem, "decisionCount" | "labels"> & { decisionCount: number | bigint; labels: string[] | null; exactRank: number };

/** A search that is one term may be an instance id typed or pasted whole: that task is listed first. */
const exactInstanceId = (query: TaskListQuery) => {
  const terms = searchTerms(query.q);
  return terms.length === 1 ? terms[0] : null;
};

/**
 * The statement behind one page: exported so the benchmark times exactly this SQL. When the
 * search is one term, the task whose instance id is that term comes first on the first page
 * (exactRank 0), in the same round trip; the ordinary pages leave it out, so the keyset
 * cursor stays whole.
 */
export function listTasksSql(query: TaskListQuery, context: FilterContext = {}): SqlFragment {
  const where = taskWhere(query, context);
  const after = cursorCondition(query.sort, query.cursor);
  const exact = exactInstanceId(query);
  const ordinary = sql`
      SELECT t.*, 1 AS exact_rank FROM tasks t
      WHERE ${where} ${exact === null ? sql`` : sql`AND t.instance_id <> ${exact}`} ${after ? sql`AND ${after}` : sql``}
      ORDER BY ${taskOrderBy(query.sort)}
      LIMIT ${query.limit + 1}`;
  const pageRows =
    exact === null || query.cursor
      ? ordinary
      : sql`(SELECT t.*, 0 AS exact_rank FROM tasks t WHERE ${where} AND t.instance_id = ${exact} LIMIT 1) UNION ALL (${ordinary})`;
  // ask for one row more than the page to know whether another page follows
  return sql`
    SELECT t.id, t.instance_id AS "instanceId", left(t.problem_statement, ${EXCERPT_LENGTH}) AS excerpt,
           t.source::text AS source, t.kind::text AS kind, t.difficulty::text AS difficulty,
           t.curation_status::text AS "curationStatus", t.automated_verdict::text AS "automatedVerdict",
           t.verdict_override::text AS "verdictOverride", t.failure_class::text AS "failureClass",
           t.labels, t.version, t.created_at AS "createdAt", t.updated_at AS "updatedAt",
           er.key AS "environmentKey", er.repository, u.name AS "assigneeName",
           (SELECT count(*)::int FROM curation_decisions d WHERE d.task_id = t.id) AS "decisionCount",
           t.exact_rank AS "exactRank"
    FROM (${pageRows}) t
    -- OFFSET 0 keeps these per-row index lookups (a page is ≤ 501 rows) instead of hashing every environment
    LEFT JOIN LATERAL (
      SELECT e.key, (SELECT r.owner || '/' || r.name FROM repositories r WHERE r.id = e.repository_id) AS repository
      FROM environments e WHERE e.id = t.environment_id OFFSET 0
    ) er ON TRUE
    LEFT JOIN LATERAL (SELECT u.name FROM users u WHERE u.id = t.assignee_id OFFSET 0) u ON TRUE
    ORDER BY t.exact_rank, ${taskOrderBy(query.sort)}`;
}

function withoutKey<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

/** One page of tasks matching the filters, in the chosen order, with a cursor for the next page. */
export async function listTasks(db: Db, input: TaskListQueryInput | TaskListQuery, context: FilterContext = {}): Promise<TaskListPage> {
  const query = TaskListQuerySchema.parse(input);
  if (query.slice && !context.slice) context = { ...context, slice: await resolveSlice(db, query.slice) };
  const { text, values } = listTasksSql(query, context).toQuery();
  const all = await db.$queryRawUnsafe<Row[]>(text, ...values);
  const exact = all.filter((row) => row.exactRank === 0);
  const rows = all.filter((row) => row.exactRank !== 0);
  const page = [...exact, ...rows.slice(0, query.limit)].map((row): TaskListItem => ({
    ...withoutKey(row, "exactRank"),
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    labels: row.labels ?? [],
    decisionCount: Number(row.decisionCount),
  }));
  const last = page[page.length - 1];
  return {
    items: page,
    nextCursor: rows.length > query.limit && last ? encodeCursor(cursorFor(query.sort, last)) : null,
    limit: query.limit,
  };
}
