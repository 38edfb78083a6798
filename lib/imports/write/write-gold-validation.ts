import { createHash } from "node:crypto";
import { z } from "zod";
import type { Db, Prisma } from "../../db/client";
import type { WriteResult } from "../import-records";
import type { ImportRun } from "../import-run";
import { canonicalJson } from "./compare";

// SWE-smith's run_validation: per instance, what the task's own fix (the gold patch) did to each
// test — report.json lists the tests it made pass (FAIL_TO_PASS), kept passing (PASS_TO_PASS),
// left failing (FAIL_TO_FAIL) or broke (PASS_TO_FAIL). Stored as a POSITIVE_CONTROL run of the
// task with a test result per FAIL_TO_PASS / PASS_TO_PASS test the task names. Natural key: the
// run's groupId from the instance; the same report again changes nothing.

export const ValidationReportSchema = z.object({
  FAIL_TO_PASS: z.array(z.string()).default([]),
  PASS_TO_PASS: z.array(z.string()).default([]),
  FAIL_TO_FAIL: z.array(z.string()).default([]),
  PASS_TO_FAIL: z.array(z.string()).default([]),
});
export type ValidationReport = z.infer<typeof ValidationReportSchema>;

export type GoldValidation = { instanceId: string; report: ValidationReport; log: string | null; runId: string | null };

export const goldValidationGroupId = (instanceId: string) =>
  `import:swe-smith-validation:${createHash("sha256").update(instanceId).digest("hex").slice(0, 24)}`;

type Outcome = "PASSED" | "FAILED" | "MISSING";

/** Each test the task names, with what the gold patch did to it (MISSING: the report does not list it). */
export function goldTestOutcomes(task: { failToPass: string[]; passToPass: string[] }, report: ValidationReport) {
  const passed = new Set([...report.FAIL_TO_PASS, ...report.PASS_TO_PASS]);
  const failed = new Set([...report.FAIL_TO_FAIL, ...report.PASS_TO_FAIL]);
  const outcome = (testId: string): Outcome =>
    passed.has(testId) ? "PASSED" : failed.has(testId) ? "FAILED" : "MISSING";
  return [
    ...task.failToPass.map((testId) => ({
      testId,
      group: "FAIL_TO_PASS" as const,
      expected: "PASSED" as const,
      actual: outcome(testId),
    })),
    ...task.passToPass.map((testId) => ({
      testId,
      group: "PASS_TO_PASS" as const,
      expected: "PASSED" as const,
      actual: outcome(testId),
    })),
  ];
}

const notImported = (instanceId: string) =>
  `no task "${instanceId}" has been imported yet: import the SWE-smith task instances this validation run produced (the rows holding ${instanceId}), then import this folder again to attach the gold patch's test results`;

export async function writeGoldValidation(tx: Db, validation: GoldValidation, run: ImportRun): Promise<WriteResult> {
  const { instanceId, report } = validation;
  const task = await tx.task.findUnique({
    where: { instanceId },
    select: { id: true, failToPass: true, passToPass: true, environment: { select: { currentRevisionId: true } } },
  });
  if (!task) return { error: notImported(instanceId) };
  const revisionId = task.environment.currentRevisionId;
  if (!revisionId)
    return { error: `the environment of ${instanceId} has no revision to attach the gold patch's results to` };

  const tests = goldTestOutcomes(task, report);
  const failing = tests.filter((t) => t.actual !== "PASSED").map((t) => t.testId);
  const resolved = tests.length > 0 && failing.length === 0;
  const groupId = goldValidationGroupId(instanceId);
  const errorMessage = failing.length
    ? `SWE-smith's validation${validation.runId ? ` (run ${validation.runId})` : ""}: with the fix ${failing.length} of the task's tests did not pass (${failing.slice(0, 3).join(", ")}${failing.length > 3 ? ", …" : ""})`
    : null;
  const data = {
    taskId: task.id,
    revisionId,
    kind: "POSITIVE_CONTROL" as const,
    groupId,
    status: "SUCCEEDED" as const,
    resolved,
    failureClass: failing.length ? ("POSITIVE_CONTROL_FAILED" as const) : null,
    log: validation.log?.replace(/\u0000/g, "") ?? null,
    errorMessage,
    importBatchId: run.batchId,
  };
  const existing = await tx.validationRun.findFirst({
    where: { groupId, kind: "POSITIVE_CONTROL", taskId: task.id },
    include: { testResults: { select: { testId: true, group: true, actual: true } } },
  });
  const fingerprint = (r: { log: string | null }, t: { testId: string; group: string; actual: string }[]) =>
    canonicalJson({ log: r.log, tests: t.map((x) => [x.testId, x.group, x.actual]).sort() });
  if (existing && fingerprint(existing, existing.testResults) === fingerprint(data, tests)) return "unchanged";
  let runId: string;
  if (existing) {
    await tx.testResult.deleteMany({ where: { runId: existing.id } });
    await tx.validationRun.update({ where: { id: existing.id }, data });
    runId = existing.id;
  } else {
    const now = new Date();
    runId = (
      await tx.validationRun.create({ data: { ...data, startedAt: now, finishedAt: now }, select: { id: true } })
    ).id;
  }
  if (tests.length)
    await tx.testResult.createMany({
      data: tests.map((t) => ({ runId, ...t })) as Prisma.TestResultCreateManyInput[],
      skipDuplicates: true,
    });
  return existing ? "updated" : "created";
}
