import { decodeCursor, NONE, type TaskCursor, type TaskFilters, type TaskSort } from "./task-filters";
import { allOf, joinSql, raw, sql, type SqlFragment } from "../db/sql";
import { AppError } from "../errors/app-error";

// The SQL behind every task list filter. Each filter maps onto an index: enum columns
// have b-tree indexes, labels a GIN index, text search the pg_trgm GIN indexes; the decided,
// reason and reviewer filters read columns the database keeps on the task.

export type FilterContext = {
  actorId?: string;
  /** a subquery of the tasks the reader is blind on (lib/auth/blind.ts): left out, so neither rows nor facet counts tell their verdict */
  hiddenTasks?: SqlFragment | null;
  /** the resolved ?slice= condition: the caller resolves it (lib/analytics/resolve-slice.ts, which builds on lib/tasks) */
  slice?: SqlFragment;
  /** the search tests tasks against the `matches` CTE (searchMatchesCte) instead of their search vectors */
  searchInMatches?: boolean;
};

/** A ?slice= filter that reached the list unresolved would be dropped silently and show every task: refuse it. */
function requireResolvedSlice(filters: { slice?: string }, context: FilterContext): void {
  if (filters.slice && !context.slice)
    throw new AppError(
      "INTERNAL",
      "An analytics slice reached the task list unresolved; resolve it with withResolvedSlice first",
    );
}

/** Filters that facets count per value; each facet ignores its own filter (so other values stay visible). */
export const FACET_COLUMNS = {
  status: { column: "curation_status", type: "CurationStatus" },
  verdict: { column: "automated_verdict", type: "AutomatedVerdict" },
  failureClass: { column: "failure_class", type: "FailureClass" },
  source: { column: "source", type: "TaskSource" },
  kind: { column: "kind", type: "TaskKind" },
  difficulty: { column: "difficulty", type: "Difficulty" },
} as const;
export type FacetKey = keyof typeof FACET_COLUMNS;

/** Terms shorter than this only match instance ids: a one- or two-letter word prefix would match most statements. */
export const MIN_TEXT_SEARCH_TERM = 3;

/** The search's words as one tsquery (every term, each as a prefix), or null when no term is long enough to search the text. */
export function textSearchQuery(q: string | undefined): string | null {
  const terms = searchTerms(q).filter((term) => term.length >= MIN_TEXT_SEARCH_TERM);
  return terms.length ? terms.map(prefixTsQuery).join(" & ") : null;
}

/** Splits a search box into terms: whitespace-separated words, "quoted phrases" kept whole. */
export function searchTerms(q: string | undefined): string[] {
  if (!q) return [];
  const terms: string[] = [];
  for (const match of q.matchAll(/"([^"]+)"|(\S+)/g)) {
    const term = (match[1] ?? match[2]).trim();
    if (term) terms.push(term);
  }
  return terms.slice(0, 8);
}

const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A tsquery matching the term's words as prefixes, in order: Postgres's own parser splits
 * the quoted text exactly as it split the statement ("on_idle" → 'on':* <-> 'idle':*).
 */
export function prefixTsQuery(term: string): string {
  return `'${term.replace(/\\/g, "\\\\").replace(/'/g, "''")}':*`;
}

/**
 * The search's matches as a CTE named `matches`, found through the search's indexes (GIN over
 * the search vector, trigram over the instance id). Tested in a scan instead, each task's search
 * vector is read from TOAST: at 1,000,000 tasks counting the facets of a word 40 % of them
 * contain took 7 s that way. MATERIALIZED keeps the planner from folding it back into the scan.
 * `columns` are what it keeps of each match: `t.*` keeps them whole, for a page read among them alone.
 */
export function searchMatchesCte(q: string | undefined, columns = "t.id"): SqlFragment | null {
  const search = searchCondition(q);
  return search && sql`matches AS MATERIALIZED (SELECT ${raw(columns)} FROM tasks t WHERE ${search})`;
}

export function searchCondition(q: string | undefined): SqlFragment | null {
  const terms = searchTerms(q);
  if (terms.length === 0) return null;
  // every term must appear: anywhere in the instance id, or as words in the problem statement
  return joinSql(
    terms.map((term) =>
      term.length < MIN_TEXT_SEARCH_TERM
        ? sql`t.instance_id ILIKE ${likePattern(term)}`
        : sql`(t.instance_id ILIKE ${likePattern(term)} OR t.search_vector @@ to_tsquery('simple', ${prefixTsQuery(term)}))`,
    ),
    " AND ",
  );
}

function enumIn(column: string, type: string, values: readonly string[]): SqlFragment | null {
  if (values.length === 0) return null;
  const real = values.filter((v) => v !== NONE);
  const parts: SqlFragment[] = [];
  if (real.length) parts.push(sql`t.${raw(column)} = ANY(${real}::${raw(`"${type}"`)}[])`);
  if (real.length !== values.length) parts.push(raw(`t.${column} IS NULL`));
  return parts.length === 1 ? parts[0] : sql`(${joinSql(parts, " OR ")})`;
}

/**
 * What curators and reviewer agents concluded, kept on each task by the database from its
 * decisions and trajectories (migration 20261207180000_task_review_tallies): the list filters
 * them without a join, and the review tallies count tasks per them.
 */
export const REVIEW_COLUMNS = {
  decided: "decided",
  reason: "decision_reasons",
  reviewerDecision: "reviewer_decisions",
} as const;

/** A reviewer filter: a reviewer agent decided one of the values; NONE, no reviewer agent decided. */
function reviewerDecisionCondition(values: readonly string[]): SqlFragment | null {
  if (values.length === 0) return null;
  const real = values.filter((v) => v !== NONE);
  const parts: SqlFragment[] = [];
  if (real.length) parts.push(sql`t.reviewer_decisions && ${real}::"ReviewerDecision"[]`);
  if (real.length !== values.length) parts.push(raw("t.reviewer_decisions = '{}'"));
  return parts.length === 1 ? parts[0] : sql`(${joinSql(parts, " OR ")})`;
}

/**
 * The decided, reason and reviewer filters, each with the column it reads. Written over `t.` and
 * those columns alone, so the same condition tests a task or a review tally's row.
 */
export function reviewConditions(filters: TaskFilters): { column: string; condition: SqlFragment }[] {
  const conditions: [keyof typeof REVIEW_COLUMNS, SqlFragment | null][] = [
    ["reviewerDecision", reviewerDecisionCondition(filters.reviewerDecision)],
    ["decided", filters.decided ? raw(filters.decided === "yes" ? "t.decided" : "NOT t.decided") : null],
    ["reason", filters.reason.length ? sql`t.decision_reasons && ${filters.reason}::"DecisionReason"[]` : null],
  ];
  return conditions.flatMap(([key, condition]) => (condition ? [{ column: REVIEW_COLUMNS[key], condition }] : []));
}

function assigneeCondition(assignee: string | undefined, context: FilterContext): SqlFragment | null {
  if (!assignee) return null;
  if (assignee === "none") return raw("t.assignee_id IS NULL");
  if (assignee === "me") {
    if (!context.actorId) throw new AppError("BAD_REQUEST", "assignee=me needs a signed-in user");
    return sql`t.assignee_id = ${context.actorId}`;
  }
  return sql`t.assignee_id = ${assignee}`;
}

/** The repository filter: tasks whose environment belongs to one of the "owner/name" repositories. */
export function repositoryCondition(repositories: readonly string[]): SqlFragment | null {
  return repositories.length
    ? sql`t.environment_id IN (SELECT e.id FROM environments e JOIN repositories r ON r.id = e.repository_id WHERE (r.owner || '/' || r.name) = ANY(${repositories}::text[]))`
    : null;
}

/** One facet's own filter (its column among the chosen values), or null when nothing is chosen. */
export function facetCondition(filters: TaskFilters, key: FacetKey): SqlFragment | null {
  const { column, type } = FACET_COLUMNS[key];
  return enumIn(column, type, filters[key]);
}

// The latest release's rows by its primary key (release_id, task_id), each compared with the
// task's controls' verdicts now (task_control_verdicts: the latest finished run of each kind,
// by validation_runs' task index): the cost follows the release's size, never the task table's.
const FLIPPED_SINCE_LATEST_RELEASE = raw(`t.id IN (SELECT rt.task_id FROM release_tasks rt
  WHERE rt.release_id = (SELECT r.id FROM releases r ORDER BY r.created_at DESC, r.id DESC LIMIT 1)
    AND rt.verdicts IS DISTINCT FROM task_control_verdicts(rt.task_id))`);

/**
 * Filters a count may leave out: a facet's own (so its other values stay visible), the
 * repository's, and the review filters (which a tally answers with reviewConditions instead).
 */
export type OmittedFilter = FacetKey | "repository" | "review";

/** The conditions the filters set, each a fragment, less those of `omit`. */
export function taskConditions(
  filters: TaskFilters,
  context: FilterContext = {},
  omit: readonly OmittedFilter[] = [],
): SqlFragment[] {
  requireResolvedSlice(filters, context);
  const search = searchCondition(filters.q);
  const conditions: (SqlFragment | null)[] = [
    search && context.searchInMatches ? raw("t.id IN (SELECT id FROM matches)") : search,
    ...(Object.keys(FACET_COLUMNS) as FacetKey[])
      .filter((key) => !omit.includes(key))
      .map((key) => facetCondition(filters, key)),
    omit.includes("repository") ? null : repositoryCondition(filters.repository),
    filters.environment
      ? sql`t.environment_id IN (SELECT e.id FROM environments e WHERE e.id = ${filters.environment} OR e.key = ${filters.environment})`
      : null,
    ...(omit.includes("review") ? [] : reviewConditions(filters).map(({ condition }) => condition)),
    filters.flipped === "yes" ? FLIPPED_SINCE_LATEST_RELEASE : null,
    filters.label.length ? sql`t.labels && ${filters.label}::text[]` : null,
    assigneeCondition(filters.assignee, context),
    filters.createdFrom ? sql`t.created_at >= ${filters.createdFrom}::date` : null,
    filters.createdTo ? sql`t.created_at < ${filters.createdTo}::date + 1` : null,
    filters.slice ? (context.slice ?? null) : null,
    context.hiddenTasks ? sql`t.id NOT IN (${context.hiddenTasks})` : null,
  ];
  return conditions.filter((c): c is SqlFragment => c !== null);
}

/** The WHERE clause for filters (without the keyword), as taskConditions. */
export function taskWhere(
  filters: TaskFilters,
  context: FilterContext = {},
  omit: readonly OmittedFilter[] = [],
): SqlFragment {
  return allOf(taskConditions(filters, context, omit));
}

type SortSpec = { column: string; direction: "ASC" | "DESC"; cursorType: "timestamp" | "text" };
// without a search, "relevance" has nothing to rank: newest first, with the same cursors
const SORTS: Record<TaskSort, SortSpec> = {
  relevance: { column: "created_at", direction: "DESC", cursorType: "timestamp" },
  created_desc: { column: "created_at", direction: "DESC", cursorType: "timestamp" },
  created_asc: { column: "created_at", direction: "ASC", cursorType: "timestamp" },
  updated_desc: { column: "updated_at", direction: "DESC", cursorType: "timestamp" },
  instance_asc: { column: "instance_id", direction: "ASC", cursorType: "text" },
  instance_desc: { column: "instance_id", direction: "DESC", cursorType: "text" },
};

export function taskOrderBy(sort: TaskSort): SqlFragment {
  const { column, direction } = SORTS[sort];
  return raw(`t.${column} ${direction}, t.id ${direction}`);
}

/** Rows strictly after the cursor in the sort order (a row-value comparison the (key, id) index serves). */
export function cursorCondition(sort: TaskSort, cursor: string | undefined): SqlFragment | null {
  if (!cursor) return null;
  const decoded = decodeCursor(cursor);
  if (!decoded || decoded[0] === null)
    throw new AppError("BAD_REQUEST", "The page cursor is not valid; reload the list from the first page");
  const { column, direction, cursorType } = SORTS[sort];
  const op = raw(direction === "DESC" ? "<" : ">");
  const key = cursorType === "timestamp" ? sql`${decoded[0]}::timestamp` : sql`${decoded[0]}::text`;
  return sql`(t.${raw(column)}, t.id) ${op} (${key}, ${decoded[1]})`;
}

export function cursorFor(
  sort: TaskSort,
  row: { id: string; createdAt: Date; updatedAt: Date; instanceId: string },
): TaskCursor {
  const { column } = SORTS[sort];
  const value =
    column === "created_at"
      ? row.createdAt.toISOString()
      : column === "updated_at"
        ? row.updatedAt.toISOString()
        : row.instanceId;
  return [value, row.id];
}
