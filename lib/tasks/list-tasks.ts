import type { Db } from "../db/client";
import type { AutomatedVerdict, CurationStatus, Difficulty, FailureClass, TaskKind, TaskSource } from "../db/enums";
import { encodeCursor, TaskListQuerySchema, type TaskListQuery, type TaskListQueryInput } from "./task-filters";
import { cursorCondition, cursorFor, searchTerms, taskOrderBy, taskWhere, type FilterContext } from "./task-list-sql";
import { sql, type SqlFragment } from "./sql";

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

type Row = Omit<TaskListItem, "decisionCount" | "labels"> & { decisionCount: number | bigint; labels: string[] | null };

/** A search that is one term may be an instance id typed or pasted whole: that task is listed first. */
const exactInstanceId = (query: TaskListQuery) => {
  const terms = searchTerms(query.q);
  return terms.length === 1 ? terms[0] : null;
};

/**
 * The statement behind one page: exported so the benchmark times exactly this SQL. `only`
 * "exact" selects the task whose instance id is the search term; otherwise that task is left
 * out of the ordinary pages (the first page shows it on top), so the keyset cursor stays whole.
 */
export function listTasksSql(query: TaskListQuery, context: FilterContext = {}, only: "exact" | "rest" = "rest"): SqlFragment {
  const exact = exactInstanceId(query);
  const exactCondition = exact === null ? null : only === "exact" ? sql`t.instance_id = ${exact}` : sql`t.instance_id <> ${exact}`;
  const where = exactCondition ? sql`${taskWhere(query, context)} AND ${exactCondition}` : taskWhere(query, context);
  const after = only === "exact" ? null : cursorCondition(query.sort, query.cursor);
  // ask for one row more than the page to know whether another page follows
  return sql`
    SELECT t.id, t.instance_id AS "instanceId", left(t.problem_statement, ${EXCERPT_LENGTH}) AS excerpt,
           t.source::text AS source, t.kind::text AS kind, t.difficulty::text AS difficulty,
           t.curation_status::text AS "curationStatus", t.automated_verdict::text AS "automatedVerdict",
           t.verdict_override::text AS "verdictOverride", t.failure_class::text AS "failureClass",
           t.labels, t.version, t.created_at AS "createdAt", t.updated_at AS "updatedAt",
           er.key AS "environmentKey", er.repository, u.name AS "assigneeName",
           (SELECT count(*)::int FROM curation_decisions d WHERE d.task_id = t.id) AS "decisionCount"
    FROM (
      SELECT t.* FROM tasks t
      WHERE ${where} ${after ? sql`AND ${after}` : sql``}
      ORDER BY ${taskOrderBy(query.sort)}
      LIMIT ${query.limit + 1}
    ) t
    -- OFFSET 0 keeps these per-row index lookups (a page is ≤ 501 rows) instead of hashing every environment
    LEFT JOIN LATERAL (
      SELECT e.key, (SELECT r.owner || '/' || r.name FROM repositories r WHERE r.id = e.repository_id) AS repository
      FROM environments e WHERE e.id = t.environment_id OFFSET 0
    ) er ON TRUE
    LEFT JOIN LATERAL (SELECT u.name FROM users u WHERE u.id = t.assignee_id OFFSET 0) u ON TRUE
    ORDER BY ${taskOrderBy(query.sort)}`;
}

/** One page of tasks matching the filters, in the chosen order, with a cursor for the next page. */
export async function listTasks(db: Db, input: TaskListQueryInput | TaskListQuery, context: FilterContext = {}): Promise<TaskListPage> {
  const query = TaskListQuerySchema.parse(input);
  const run = (only: "exact" | "rest") => {
    const { text, values } = listTasksSql(query, context, only).toQuery();
    return db.$queryRawUnsafe<Row[]>(text, ...values);
  };
  const firstPageOfSearch = !query.cursor && exactInstanceId(query) !== null;
  const [exact, rows] = await Promise.all([firstPageOfSearch ? run("exact") : [], run("rest")]);
  const page = [...exact, ...rows.slice(0, query.limit)].map((row) => ({
    ...row,
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
