import type { Db, Prisma } from "../db/client";
import { notFound } from "../errors/app-error";

const RUN_FIELDS = {
  id: true,
  groupId: true,
  kind: true,
  attempt: true,
  status: true,
  phase: true,
  exitCode: true,
  markerExitCode: true,
  failureClass: true,
  flags: true,
  resolved: true,
  touchedTestPaths: true,
  errorMessage: true,
  durationMs: true,
  workerId: true,
  attempts: true,
  cancelRequested: true,
  logTruncated: true,
  candidatePatchId: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  revision: { select: { id: true, number: true } },
  build: { select: { id: true, cacheHit: true, imageTag: true, durationMs: true } },
  candidatePatch: { select: { generator: true } },
  testResults: {
    where: { group: { in: ["FAIL_TO_PASS", "PASS_TO_PASS"] } },
    select: { testId: true, group: true, expected: true, actual: true },
    orderBy: [{ group: "asc" }, { testId: "asc" }],
  },
  _count: { select: { testResults: true } },
} satisfies Prisma.ValidationRunSelect;

/**
 * A task's validation history, newest group first, each run with its FAIL_TO_PASS /
 * PASS_TO_PASS results (other tests are only counted: a suite can have thousands) —
 * plus the task's verdict, so the panel needs one request.
 */
export async function listTaskValidations(db: Db, taskId: string, options: { groups?: number } = {}) {
  const task = await db.task.findUnique({
    where: { id: taskId },
    select: {
      id: true,
      instanceId: true,
      version: true,
      automatedVerdict: true,
      failureClass: true,
      verdictOverride: true,
      overrideJustification: true,
      environment: { select: { id: true, key: true, timeoutSeconds: true, currentRevision: { select: { id: true, number: true } } } },
    },
  });
  if (!task) throw notFound("The task");
  const recentGroups = await db.validationRun.groupBy({
    by: ["groupId"],
    where: { taskId },
    _max: { createdAt: true },
    orderBy: { _max: { createdAt: "desc" } },
    take: options.groups ?? 20,
  });
  const groupIds = recentGroups.map((group) => group.groupId).filter((id): id is string => !!id);
  const runs = await db.validationRun.findMany({ where: { taskId, groupId: { in: groupIds } }, select: RUN_FIELDS, orderBy: [{ attempt: "asc" }, { kind: "asc" }] });
  const groups = groupIds.map((groupId) => {
    const members = runs.filter((run) => run.groupId === groupId);
    return {
      groupId,
      createdAt: members.reduce((min, run) => (run.createdAt < min ? run.createdAt : min), members[0]?.createdAt ?? new Date()),
      active: members.some((run) => run.status === "QUEUED" || run.status === "RUNNING"),
      candidate: members.some((run) => run.kind === "CANDIDATE"),
      runs: members,
    };
  });
  return { task, groups };
}

export type TaskValidations = Awaited<ReturnType<typeof listTaskValidations>>;

/** One run with everything, its stored log included. */
export async function getValidationRun(db: Db, runId: string) {
  const run = await db.validationRun.findUnique({
    where: { id: runId },
    select: { ...RUN_FIELDS, taskId: true, log: true, containerId: true, testResults: { select: { testId: true, group: true, expected: true, actual: true }, orderBy: [{ group: "asc" }, { testId: "asc" }] } },
  });
  if (!run) throw notFound("That validation run");
  return run;
}
