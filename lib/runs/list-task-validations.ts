import { validationReadiness } from "../environments/validation-readiness";
import type { Db, Prisma } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { PageQuerySchema, type PageQuery } from "../db/keyset-page";
import { requireVisible, withoutVerdict, type BlindSet } from "../auth/blind";

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

type GroupRow = { groupId: string; createdAt: Date };

/**
 * A page of a task's validation groups, newest first by when the group was queued (a retry
 * inside a group does not move it between pages): keyset on (first run's time, group id),
 * the cursor being the last group id shown.
 */
async function groupPage(
  db: Db,
  taskId: string,
  page: PageQuery,
): Promise<{ groups: GroupRow[]; nextCursor: string | null }> {
  const cursor = page.cursor ?? null;
  if (cursor && !(await db.validationRun.findFirst({ where: { taskId, groupId: cursor }, select: { id: true } }))) {
    throw new AppError(
      "BAD_REQUEST",
      "The page cursor is not valid (this task has no validation group with that id); reload from the first page",
      undefined,
      [{ field: "cursor", in: "query", pointer: "/cursor", detail: "cursor names no validation group of this task" }],
    );
  }
  const rows = await db.$queryRaw<GroupRow[]>`
    SELECT group_id AS "groupId", min(created_at) AS "createdAt" FROM validation_runs
    WHERE task_id = ${taskId} AND group_id IS NOT NULL
    GROUP BY group_id
    HAVING ${cursor}::text IS NULL OR (min(created_at), group_id) <
      (SELECT min(c.created_at), c.group_id FROM validation_runs c WHERE c.task_id = ${taskId} AND c.group_id = ${cursor}::text GROUP BY c.group_id)
    ORDER BY min(created_at) DESC, group_id DESC
    LIMIT ${page.limit + 1}`;
  const groups = rows.slice(0, page.limit);
  return { groups, nextCursor: rows.length > page.limit ? groups[groups.length - 1].groupId : null };
}

/**
 * A task's validation history, a page of groups at a time, newest first, each run with its
 * FAIL_TO_PASS / PASS_TO_PASS results (other tests are only counted: a suite can have
 * thousands) — plus the task's verdict, so the panel needs one request.
 */
/** `blind` is required (NOT_BLIND for the product itself, e.g. the CLI) so no page forgets blindness. */
export async function listTaskValidations(db: Db, taskId: string, input: Partial<PageQuery>, blind: BlindSet) {
  const found = await db.task.findUnique({
    where: { id: taskId },
    select: {
      id: true,
      instanceId: true,
      version: true,
      automatedVerdict: true,
      failureClass: true,
      verdictOverride: true,
      overrideJustification: true,
      environment: {
        select: {
          id: true,
          key: true,
          timeoutSeconds: true,
          imageSource: true,
          imageReference: true,
          imageDigest: true,
          currentRevision: { select: { id: true, number: true } },
        },
      },
    },
  });
  if (!found) throw notFound("The task");
  // the page offers Validate only when the API would take it
  const task = { ...found, readiness: validationReadiness(found.environment, found.instanceId) };
  // a blind annotator gets no runs: their results would tell the verdict
  if (await blind.hides(taskId)) return { task: withoutVerdict(task), items: [], nextCursor: null };
  const { groups, nextCursor } = await groupPage(db, taskId, PageQuerySchema.parse(input));
  const runs = await db.validationRun.findMany({
    where: { taskId, groupId: { in: groups.map((g) => g.groupId) } },
    select: RUN_FIELDS,
    orderBy: [{ attempt: "asc" }, { kind: "asc" }],
  });
  const items = groups.map(({ groupId, createdAt }) => {
    const members = runs.filter((run) => run.groupId === groupId);
    return {
      groupId,
      createdAt: new Date(createdAt),
      active: members.some((run) => run.status === "QUEUED" || run.status === "RUNNING"),
      candidate: members.some((run) => run.kind === "CANDIDATE"),
      runs: members,
    };
  });
  return { task, items, nextCursor };
}

export type TaskValidations = Awaited<ReturnType<typeof listTaskValidations>>;

/** One run with everything, its stored log included; absent to a reader blind on its task. */
export async function getValidationRun(db: Db, runId: string, blind: BlindSet) {
  const run = await db.validationRun.findUnique({
    where: { id: runId },
    select: {
      ...RUN_FIELDS,
      taskId: true,
      log: true,
      containerId: true,
      testResults: {
        select: { testId: true, group: true, expected: true, actual: true },
        orderBy: [{ group: "asc" }, { testId: "asc" }],
      },
    },
  });
  if (!run) throw notFound("That validation run");
  await requireVisible(blind, run.taskId, "That validation run");
  return run;
}

/** Refuses a run's live log, as if absent, to a reader blind on its task. */
export async function requireRunReadable(db: Db, runId: string, blind: BlindSet): Promise<void> {
  const run = await db.validationRun.findUnique({ where: { id: runId }, select: { taskId: true } });
  if (run) await requireVisible(blind, run.taskId, "That validation run");
}
