import type { TaskKind } from "../db/client";
import { sql, type SqlFragment } from "../tasks/sql";

// Generated tests and test-driven steps are judged by their latest finished control runs:
// the negative control (the tests without the fix) and the positive control (with it).

export type ControlRunRow = {
  taskId: string;
  instanceId: string;
  repository: string;
  generator: string | null;
  generatedFor: string | null;
  fixPatch: string;
  negId: string | null;
  negClass: string | null;
  negFinished: Date | null;
  posId: string | null;
  posClass: string | null;
  posFinished: Date | null;
};

export function latestControlRunsSql(kind: TaskKind): SqlFragment {
  return sql`
    SELECT t.id AS "taskId", t.instance_id AS "instanceId", t.fix_patch AS "fixPatch",
           t.metadata->>'generator' AS generator, t.metadata->>'generatedFor' AS "generatedFor",
           (SELECT r.owner || '/' || r.name FROM environments e JOIN repositories r ON r.id = e.repository_id WHERE e.id = t.environment_id) AS repository,
           neg.id AS "negId", neg.failure_class::text AS "negClass", neg.finished_at AS "negFinished",
           pos.id AS "posId", pos.failure_class::text AS "posClass", pos.finished_at AS "posFinished"
    FROM tasks t
    LEFT JOIN LATERAL (SELECT v.id, v.failure_class, v.finished_at FROM validation_runs v
      WHERE v.task_id = t.id AND v.kind = 'NEGATIVE_CONTROL' AND v.status = 'SUCCEEDED' ORDER BY v.finished_at DESC NULLS LAST, v.attempt LIMIT 1) neg ON TRUE
    LEFT JOIN LATERAL (SELECT v.id, v.failure_class, v.finished_at FROM validation_runs v
      WHERE v.task_id = t.id AND v.kind = 'POSITIVE_CONTROL' AND v.status = 'SUCCEEDED' ORDER BY v.finished_at DESC NULLS LAST, v.attempt LIMIT 1) pos ON TRUE
    WHERE t.kind = ${kind}::"TaskKind"
    ORDER BY t.instance_id`;
}

/**
 * What a control run says: true when it behaved (no failure class), false when it failed in
 * the way its kind measures, null when it did not run or stopped for another reason (a
 * build error, a timeout …), which measures nothing.
 */
export function controlOutcome(runId: string | null, failureClass: string | null, measuredFailure: string): boolean | null {
  if (!runId) return null;
  if (failureClass === null) return true;
  return failureClass === measuredFailure ? false : null;
}
