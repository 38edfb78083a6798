import type { Db } from "../db/client";
import type { Actor } from "./actor";
import { can } from "./permissions";
import { notFound } from "../errors/app-error";
import { raw, sql, type SqlFragment } from "../db/sql";

// Blindness outside the campaign pages, at one choke point. An annotator (a curator, not a
// campaign manager) of an active campaign that hides the verdict is blind on every task of it
// they have not submitted a label for — served or not, so nothing can be read ahead of "review
// next". Submitting, or the campaign closing, lifts it; admins and adjudicators are never blinded.
//
// Every read of tasks, runs, trajectories, history, exports and analytics takes the reader's
// BlindSet (blindSetOf) and applies it here: a hidden task is absent from lists and counts, its
// runs answer 404, and where the task itself is shown (its page, its trajectories, its history)
// what judges it is removed. test/security/blind-every-route.test.ts walks every GET route as a
// blind annotator to hold every route to it.

/** Who reads: a signed-in person, or null for the product itself (the CLI, a worker, a test's setup). */
export type Reader = Pick<Actor, "id" | "role"> | null;

/** The tasks a reader may not see judged yet, in the forms reads need them. */
export type BlindSet = {
  /** a subquery of the hidden task ids, for a statement of its own (lists, counts, exports); null when the reader is never blinded */
  readonly sql: SqlFragment | null;
  /** whether one task is hidden (one EXISTS, not the whole set) */
  hides(taskId: string | null | undefined): Promise<boolean>;
  /** every hidden task id (few: one campaign's unlabelled tasks), read once per set */
  ids(): Promise<ReadonlySet<string>>;
};

const NONE: ReadonlySet<string> = new Set();

/** The product's own reads (CLI, workers) and every role that is never blinded. */
export const NOT_BLIND: BlindSet = { sql: null, hides: async () => false, ids: async () => NONE };

/**
 * The tasks whose automated verdict, failure class and runs `actor` may not see yet, as a
 * subquery of task ids, or null for a role that is never blinded.
 */
export function blindTaskIdsSql(actor: Pick<Actor, "id" | "role">): SqlFragment | null {
  if (can(actor.role, "campaigns:manage")) return null;
  return sql`SELECT ct.task_id FROM campaign_tasks ct JOIN campaigns c ON c.id = ct.campaign_id
    WHERE c.status = 'ACTIVE' AND c.hide_verdict
      AND EXISTS (SELECT 1 FROM campaign_annotators a WHERE a.campaign_id = c.id AND a.user_id = ${actor.id})
      AND NOT EXISTS (SELECT 1 FROM campaign_labels l WHERE l.task_id = ct.task_id AND l.annotator_id = ${actor.id} AND l.submitted_at IS NOT NULL)`;
}

/** The one door: the reader's blind set, which every read of tasks, runs, trajectories, history, exports and analytics applies. */
export function blindSetOf(db: Db, reader: Reader): BlindSet {
  const subquery = reader ? blindTaskIdsSql(reader) : null;
  if (!subquery) return NOT_BLIND;
  let all: Promise<ReadonlySet<string>> | undefined;
  const ids = () => (all ??= readIds(db, subquery));
  const hides = async (taskId: string | null | undefined) => {
    if (!taskId) return false;
    if (all) return (await all).has(taskId);
    const { text, values } =
      sql`SELECT EXISTS (SELECT 1 FROM (${subquery}) b WHERE b.task_id = ${taskId}) AS blind`.toQuery();
    const [row] = await db.$queryRawUnsafe<{ blind: boolean }[]>(text, ...values);
    return row.blind;
  };
  return { sql: subquery, hides, ids };
}

async function readIds(db: Db, subquery: SqlFragment): Promise<ReadonlySet<string>> {
  const { text, values } = sql`SELECT DISTINCT task_id FROM (${subquery}) b`.toQuery();
  return new Set((await db.$queryRawUnsafe<{ task_id: string }[]>(text, ...values)).map((row) => row.task_id));
}

/** Whether `actor` is blind on one task. */
export async function isBlindOn(db: Db, actor: Pick<Actor, "id" | "role">, taskId: string): Promise<boolean> {
  return blindSetOf(db, actor).hides(taskId);
}

/** A hidden task's runs and logs answer as if absent: their results would tell the verdict. */
export async function requireVisible(blind: BlindSet, taskId: string | null | undefined, what: string): Promise<void> {
  if (await blind.hides(taskId)) throw notFound(what);
}

/** The items that are not about a hidden task: lists and the counts made from them. */
export async function visibleOnly<T>(
  blind: BlindSet,
  items: readonly T[],
  taskIdOf: (item: T) => string | null | undefined,
): Promise<T[]> {
  if (blind === NOT_BLIND) return [...items];
  const hidden = await blind.ids();
  return items.filter((item) => !hidden.has(taskIdOf(item) ?? ""));
}

/** A condition on a task id column that leaves hidden tasks out of a statement (TRUE for a reader blind on nothing). */
export function notHiddenSql(blind: BlindSet, column: string): SqlFragment {
  return blind.sql ? sql`${raw(column)} NOT IN (${blind.sql})` : raw("TRUE");
}

export const HIDDEN_UNTIL_SUBMITTED = "hidden until you submit your label";

type Judged = {
  automatedVerdict: unknown;
  failureClass: unknown;
  verdictOverride: unknown;
  overrideJustification: unknown;
};
type Decided = { decisions?: unknown[]; approvals?: { required: number; count: number | null } };

/**
 * The task without what judges it: the verdict, its override, the failure class, which
 * candidate patches resolved it, and the curators' decisions (their verdicts, and whether
 * each overrides the automated one) with the approvals counted from them.
 */
export function withoutVerdict<T extends Judged & Decided & { candidatePatches?: { resolved: boolean | null }[] }>(
  task: T,
) {
  return {
    ...task,
    automatedVerdict: null,
    failureClass: null,
    verdictOverride: null,
    overrideJustification: null,
    ...(task.candidatePatches ? { candidatePatches: task.candidatePatches.map(withoutResolved) } : {}),
    ...(task.decisions ? { decisions: [] } : {}),
    ...(task.approvals ? { approvals: { required: task.approvals.required, count: null } } : {}),
    verdictHidden: HIDDEN_UNTIL_SUBMITTED,
  };
}

/** A candidate patch (or anything carrying `resolved`) without whether it resolved the task. */
export function withoutResolved<T extends { resolved: boolean | null }>(item: T): T {
  return { ...item, resolved: null };
}

/** The task shown as this reader may see it. */
export async function taskAsSeenBy<
  T extends Judged & Decided & { id: string; candidatePatches?: { resolved: boolean | null }[] },
>(blind: BlindSet, task: T) {
  return (await blind.hides(task.id)) ? withoutVerdict(task) : task;
}

// Audit actions on a task that carry what judges it; a hidden task's history leaves them out.
const JUDGING_ACTIONS =
  /^(verdict\.|task\.decided|task\.decision_undone|task\.verdict_overridden|task\.override_removed|campaign\.)/;
const JUDGING_KEYS = new Set([
  "automatedVerdict",
  "failureClass",
  "verdictOverride",
  "overrideJustification",
  "justification",
  "verdict",
  "resolved",
  "flakyTests",
  "reasons",
]);

const withoutJudgingKeys = (value: unknown): unknown =>
  value && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter(([key]) => !JUDGING_KEYS.has(key)))
    : value;

/** A hidden task's audit trail without the events that judge it, and without judging fields in the rest (an import's update, say). */
export function historyWithoutVerdict<
  E extends { entityType: string; action: string; before: unknown; after: unknown },
>(events: readonly E[]): E[] {
  return events
    .filter((event) => event.entityType !== "task" || !JUDGING_ACTIONS.test(event.action))
    .map((event) =>
      event.entityType === "task"
        ? { ...event, before: withoutJudgingKeys(event.before), after: withoutJudgingKeys(event.after) }
        : event,
    );
}
