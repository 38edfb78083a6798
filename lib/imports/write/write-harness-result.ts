import { createHash } from "node:crypto";
import type { Db, Prisma } from "../../db/client";
import { auditLog } from "../../audit/audit-log";
import type { HarnessResult } from "../records/harness-result";
import type { WriteResult } from "../import-records";
import type { ImportRun } from "../import-run";
import { canonicalJson } from "./compare";
import { missingTask } from "./find-tasks";

// One harness result = one CANDIDATE ValidationRun (+ TestResults) of the generator's
// CandidatePatch, created if the predictions were not imported. Natural key: the run's
// groupId, derived from (instance, generator); the same result again changes nothing.

export const MAX_IMPORTED_LOG_CHARS = 1024 * 1024;

export const harnessGroupId = (instanceId: string, generator: string) =>
  `import:harness:${createHash("sha256").update(`${instanceId}\u0000${generator}`).digest("hex").slice(0, 24)}`;

function capLog(log: string | null) {
  if (log === null) return { log: null, logTruncated: false };
  const clean = log.replace(/\u0000/g, "");
  return clean.length > MAX_IMPORTED_LOG_CHARS
    ? { log: clean.slice(-MAX_IMPORTED_LOG_CHARS), logTruncated: true }
    : { log: clean, logTruncated: false };
}

const fingerprint = (
  run: { resolved: boolean | null; exitCode: number | null; flags: string[]; log: string | null },
  tests: { testId: string; group: string; expected: string; actual: string }[],
) =>
  canonicalJson({
    resolved: run.resolved,
    exitCode: run.exitCode,
    flags: [...run.flags].sort(),
    log: run.log,
    tests: tests.map((t) => [t.testId, t.group, t.expected, t.actual]).sort(),
  });

function emptyPatchReason(result: HarnessResult): string {
  const said = result.patch === null ? "the run carries no patch" : "the run's patch is empty";
  return `${said} and no prediction of "${result.generator}" for ${result.instanceId} was imported, so there is no candidate to attach the result to; import the predictions (or the run folder with its patch.diff) first`;
}

/** What a reader of the run should know about its grade: why it could not be graded, or where the verdict came from instead. */
function gradeNote(result: HarnessResult): string | null {
  const { notEvaluated, gradedResolved, resultsFile } = result.metadata as {
    notEvaluated?: string | null;
    gradedResolved?: boolean | null;
    resultsFile?: string;
  };
  if (resultsFile && gradedResolved !== undefined)
    return `resolved = ${result.resolved} as the run's results file ${resultsFile} says; graded from the tests, it would be ${gradedResolved}`;
  if (notEvaluated) return `Ungradable: ${notEvaluated}; counted unresolved, as SWE-bench counts it`;
  return null;
}

export async function writeHarnessResult(tx: Db, result: HarnessResult, run: ImportRun): Promise<WriteResult> {
  const task = await tx.task.findUnique({
    where: { instanceId: result.instanceId },
    select: { id: true, environment: { select: { currentRevisionId: true } } },
  });
  if (!task) return missingTask(result.instanceId);
  const revisionId = task.environment.currentRevisionId;
  if (!revisionId) return { error: `the environment of ${result.instanceId} has no revision to attach the run to` };

  let candidate = await tx.candidatePatch.findUnique({
    where: { taskId_generator: { taskId: task.id, generator: result.generator } },
  });
  if (!candidate) {
    // an empty patch is no candidate: without the prediction (or the run's patch.diff) there is nothing to store
    if (!result.patch?.trim()) return { error: emptyPatchReason(result) };
    candidate = await tx.candidatePatch.create({
      data: {
        taskId: task.id,
        generator: result.generator,
        patch: result.patch,
        metadata: { importedWith: "harness-report" },
      },
    });
  }

  const groupId = harnessGroupId(result.instanceId, result.generator);
  const { log, logTruncated } = capLog(result.log);
  const data = {
    taskId: task.id,
    revisionId,
    candidatePatchId: candidate.id,
    kind: "CANDIDATE" as const,
    groupId,
    status: "SUCCEEDED" as const,
    resolved: result.resolved,
    exitCode: result.exitCode,
    markerExitCode: result.exitCode,
    flags: result.flags,
    log,
    logTruncated,
    errorMessage: gradeNote(result),
    importBatchId: run.batchId,
  };
  const existing = await tx.validationRun.findFirst({
    where: { groupId, candidatePatchId: candidate.id, kind: "CANDIDATE" },
    include: { testResults: { select: { testId: true, group: true, expected: true, actual: true } } },
  });
  if (existing && fingerprint(existing, existing.testResults) === fingerprint({ ...result, log }, result.tests))
    return "unchanged";

  let runId: string;
  if (existing) {
    await tx.testResult.deleteMany({ where: { runId: existing.id } });
    await tx.validationRun.update({ where: { id: existing.id }, data });
    runId = existing.id;
    await auditLog(tx, {
      actorId: run.actorId,
      entityType: "validation_run",
      entityId: existing.id,
      action: "import.update",
      before: {
        resolved: existing.resolved,
        exitCode: existing.exitCode,
        flags: existing.flags,
        tests: existing.testResults.length,
      },
      after: {
        resolved: result.resolved,
        exitCode: result.exitCode,
        flags: result.flags,
        tests: result.tests.length,
        importBatchId: run.batchId,
      },
    });
  } else {
    const now = new Date();
    runId = (
      await tx.validationRun.create({ data: { ...data, startedAt: now, finishedAt: now }, select: { id: true } })
    ).id;
  }
  if (result.tests.length) {
    await tx.testResult.createMany({
      data: result.tests.map((t) => ({ runId, ...t })) as Prisma.TestResultCreateManyInput[],
      skipDuplicates: true,
    });
  }
  if (candidate.resolved !== result.resolved)
    await tx.candidatePatch.update({ where: { id: candidate.id }, data: { resolved: result.resolved } });
  return existing ? "updated" : "created";
}
