import type { TaskKind } from "../db/client";
import { EMPTY, raw, sql, type SqlFragment } from "../db/sql";
import { byCodePoints, type FactSource } from "./fact-cache";

// Generated tests and test-driven steps are judged by their latest finished control runs:
// the negative control (the tests without the fix) and the positive control (with it).

export type ControlRunRow = {
  taskId: string;
  instanceId: string;
  repository: string;
  generator: string | null;
  generatedFor: string | null;
  /** the task a generated test was made for, and its version (what a promotion builds on) */
  originalId: string | null;
  originalVersion: number | null;
  fixPatch: string;
  negId: string | null;
  negClass: string | null;
  negFinished: Date | null;
  posId: string | null;
  posClass: string | null;
  posFinished: Date | null;
};

/**
 * Every task's latest finished control run of a kind (columns of `v`, ours), as a table keyed by
 * task_id: one sort joined by hash, rather than one index probe per task. With `tasks`, the
 * runs of those tasks only (what a fold of the analytics facts reads).
 */
export const latestControlRuns = (
  runKind: "NEGATIVE_CONTROL" | "POSITIVE_CONTROL",
  columns: string,
  tasks?: string[],
): SqlFragment => sql`(SELECT DISTINCT ON (v.task_id) v.task_id, ${raw(columns)} FROM validation_runs v
      WHERE v.kind = ${raw(`'${runKind}'`)} AND v.status = 'SUCCEEDED' ${tasks ? sql`AND v.task_id = ANY(${tasks}::text[])` : EMPTY}
      ORDER BY v.task_id, v.finished_at DESC NULLS LAST, v.attempt, v.id)`;

/** The tasks of a kind (of `tasks` only, when given) with their latest controls, in instance-id order. */
export function latestControlRunsSql(kind: TaskKind, tasks?: string[]): SqlFragment {
  return sql`
    SELECT t.id AS "taskId", t.instance_id AS "instanceId", t.fix_patch AS "fixPatch",
           t.metadata->>'generator' AS generator, t.metadata->>'generatedFor' AS "generatedFor",
           o.id AS "originalId", o.version AS "originalVersion",
           (SELECT r.owner || '/' || r.name FROM environments e JOIN repositories r ON r.id = e.repository_id WHERE e.id = t.environment_id) AS repository,
           neg.id AS "negId", neg.failure_class::text AS "negClass", neg.finished_at AS "negFinished",
           pos.id AS "posId", pos.failure_class::text AS "posClass", pos.finished_at AS "posFinished"
    FROM tasks t
    LEFT JOIN tasks o ON o.instance_id = t.metadata->>'generatedFor'
    LEFT JOIN ${latestControlRuns("NEGATIVE_CONTROL", "v.id, v.failure_class, v.finished_at", tasks)} neg ON neg.task_id = t.id
    LEFT JOIN ${latestControlRuns("POSITIVE_CONTROL", "v.id, v.failure_class, v.finished_at", tasks)} pos ON pos.task_id = t.id
    WHERE t.kind = ${kind}::"TaskKind" ${tasks ? sql`AND t.id = ANY(${tasks}::text[])` : EMPTY}
    ORDER BY t.instance_id COLLATE "C", t.id COLLATE "C"`;
}

/** Facts of tasks in instance-id order, as latestControlRunsSql reads them. */
export const byInstance = (a: { instanceId: string; taskId: string }, b: { instanceId: string; taskId: string }) =>
  byCodePoints(a.instanceId, b.instanceId) || byCodePoints(a.taskId, b.taskId);

/** Cached facts judged by their tasks' control runs: one a task, kept in instance-id order. */
export const controlRunFacts = <T extends { instanceId: string; taskId: string }>(
  name: string,
  read: FactSource<T>["read"],
): FactSource<T> => ({ name, read, taskOf: (fact) => fact.taskId, order: byInstance });

/**
 * What a control run says: true when it behaved (no failure class), false when it failed in
 * the way its kind measures, null when it did not run or stopped for another reason (a
 * build error, a timeout …), which measures nothing.
 */
export function controlOutcome(
  runId: string | null,
  failureClass: string | null,
  measuredFailure: string,
): boolean | null {
  if (!runId) return null;
  if (failureClass === null) return true;
  return failureClass === measuredFailure ? false : null;
}
