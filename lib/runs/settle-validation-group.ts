import type { Db } from "../db/client";
import { auditLog } from "../audit/audit-log";
import { computeVerdict, type Verdict } from "../validation/compute-verdict";
import { lockTask } from "./create-validation-group";

/**
 * After a run of a group finishes (stored, failed, or given up after its worker died): when the whole group has, derive the task's automated
 * verdict from it. Only the task's latest control group decides — an older group finishing
 * late must not overwrite a newer verdict. The task row is locked so two workers finishing
 * the last two runs at once settle it once.
 */
export async function settleGroupOfRun(tx: Db, runId: string): Promise<Verdict | null> {
  const { taskId, groupId } = await tx.validationRun.findUniqueOrThrow({
    where: { id: runId },
    select: { taskId: true, groupId: true },
  });
  return settleValidationGroup(tx, taskId, groupId);
}

async function settleValidationGroup(tx: Db, taskId: string, groupId: string | null): Promise<Verdict | null> {
  if (!groupId) return null;
  await lockTask(tx, taskId);
  const latest = await tx.validationRun.findFirst({
    where: { taskId, kind: { not: "CANDIDATE" } },
    orderBy: { createdAt: "desc" },
    select: { groupId: true },
  });
  if (latest?.groupId !== groupId) return null;
  const runs = await tx.validationRun.findMany({
    where: { groupId },
    include: {
      testResults: {
        where: { group: { in: ["FAIL_TO_PASS", "PASS_TO_PASS"] } },
        select: { testId: true, actual: true },
      },
    },
  });
  const verdict = computeVerdict(
    runs.map((run) => ({
      kind: run.kind,
      status: run.status,
      failureClass: run.failureClass,
      // for controls, a run without a failure class did exactly what its kind requires
      behaved: run.status === "SUCCEEDED" && run.failureClass === null,
      passed: new Map(run.testResults.map((result) => [result.testId, result.actual === "PASSED"])),
    })),
  );
  if (!verdict) return null;
  const before = await tx.task.findUniqueOrThrow({
    where: { id: taskId },
    select: { automatedVerdict: true, failureClass: true },
  });
  if (verdict.verdict === "FLAKY") {
    for (const run of runs.filter((r) => r.kind !== "CANDIDATE" && !r.flags.includes("FLAKY"))) {
      await tx.validationRun.update({ where: { id: run.id }, data: { flags: { push: "FLAKY" } } });
    }
  }
  if (before.automatedVerdict !== verdict.verdict || before.failureClass !== verdict.failureClass) {
    // no version bump: Task.version guards people's edits, and a verdict arriving must not make a curator's open form stale
    await tx.task.update({
      where: { id: taskId },
      data: { automatedVerdict: verdict.verdict, failureClass: verdict.failureClass },
    });
    await auditLog(tx, {
      actorId: null,
      entityType: "task",
      entityId: taskId,
      action: "verdict.automated",
      before,
      after: {
        automatedVerdict: verdict.verdict,
        failureClass: verdict.failureClass,
        groupId,
        flakyTests: verdict.flakyTests,
      },
    });
  }
  return verdict;
}
