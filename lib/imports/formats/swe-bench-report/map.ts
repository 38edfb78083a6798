import { z } from "zod";
import type { TestGroup, TestOutcome } from "../../../db/client";
import type { HarnessResult, HarnessTest } from "../../records/harness-result";
import { findExitCodeMarker } from "../../../validation/exit-code-markers";
import { gradedOutcome, gradeTests, parseHarnessLog } from "../../../validation/grade-swe-bench";

export type { HarnessResult, HarnessTest } from "../../records/harness-result";

// SWE-bench harness results: a per-instance report.json (wrapped in its instance id, or
// SWE-smith's unwrapped variant with model_name_or_path), optionally with the run's
// test_output.txt; or a log alone (docker-era test_output.txt, or a legacy *.eval.log).
// Each becomes a CANDIDATE ValidationRun with its TestResults; `resolved` is the ground
// truth for that generator's CandidatePatch.

const TestBucketSchema = z
  .object({ success: z.array(z.string()).default([]), failure: z.array(z.string()).default([]) })
  .loose();

export const HarnessReportSchema = z
  .object({
    patch_is_None: z.boolean().nullish(),
    patch_exists: z.boolean().nullish(),
    patch_successfully_applied: z.boolean().nullish(),
    resolved: z.boolean(),
    infra_failure: z.boolean().nullish(),
    infra_failure_reason: z.string().nullish(),
    model_name_or_path: z.string().nullish(),
    tests_status: z
      .object({
        FAIL_TO_PASS: TestBucketSchema.optional(),
        PASS_TO_PASS: TestBucketSchema.optional(),
        FAIL_TO_FAIL: TestBucketSchema.optional(),
        PASS_TO_FAIL: TestBucketSchema.optional(),
      })
      .loose()
      .nullish(),
  })
  .loose();
export type HarnessReport = z.infer<typeof HarnessReportSchema>;

/** A report.json's per-instance entries: { "<instance_id>": report } or one unwrapped report (instance id unknown). */
export function reportEntries(document: unknown): Array<{ instanceId: string | null; report: HarnessReport }> {
  if (document && typeof document === "object" && "resolved" in (document as object)) {
    return [{ instanceId: null, report: HarnessReportSchema.parse(document) }];
  }
  if (!document || typeof document !== "object" || Array.isArray(document))
    throw new Error('a report.json is an object: { "<instance_id>": { resolved, tests_status, … } }');
  return Object.entries(document as Record<string, unknown>).map(([instanceId, report]) => ({
    instanceId,
    report: HarnessReportSchema.parse(report),
  }));
}

function bucket(
  tests: HarnessTest[],
  ids: { success: string[]; failure: string[] } | undefined,
  group: TestGroup,
  expected: TestOutcome,
  successMeans: TestOutcome,
) {
  const other: TestOutcome = successMeans === "PASSED" ? "FAILED" : "PASSED";
  for (const testId of ids?.success ?? []) tests.push({ testId, group, expected, actual: successMeans });
  for (const testId of ids?.failure ?? []) tests.push({ testId, group, expected, actual: other });
}

/** The TestResults a report's tests_status describes (its F2F / P2F buckets go to OTHER). */
export function testsFromReport(report: HarnessReport): HarnessTest[] {
  const tests: HarnessTest[] = [];
  const status = report.tests_status;
  if (!status) return tests;
  bucket(tests, status.FAIL_TO_PASS, "FAIL_TO_PASS", "PASSED", "PASSED");
  bucket(tests, status.PASS_TO_PASS, "PASS_TO_PASS", "PASSED", "PASSED");
  // SWE-bench lists F2F/P2F tests under "success" when they failed as expected
  bucket(tests, status.FAIL_TO_FAIL, "OTHER", "FAILED", "FAILED");
  bucket(tests, status.PASS_TO_FAIL, "OTHER", "FAILED", "FAILED");
  const seen = new Set<string>();
  return tests.filter((t) => (seen.has(t.testId) ? false : (seen.add(t.testId), true)));
}

/**
 * The TestResults a log shows for the task's FAIL_TO_PASS / PASS_TO_PASS tests, graded as
 * SWE-bench grades them: the repository's parser, then every F2P and P2P test must succeed.
 * `resolved` comes from these statuses only, never from a summary line the log prints.
 */
export function testsFromLog(log: string, task: { failToPass: string[]; passToPass: string[]; repo?: string | null }) {
  const parsed = parseHarnessLog(log, { repo: task.repo });
  const grade = gradeTests(parsed.statuses, task.failToPass, task.passToPass, parsed.evaluated);
  const tests: HarnessTest[] = grade.tests.map((test) => ({
    testId: test.testId,
    group: test.group,
    expected: "PASSED",
    actual: gradedOutcome(test),
  }));
  return { tests, parser: parsed.parser, resolved: grade.resolved, notEvaluated: parsed.reason };
}

export function reportFlags(report: HarnessReport): string[] {
  const flags: string[] = [];
  if (report.patch_is_None || report.patch_exists === false) flags.push("EMPTY_PATCH");
  // SWE-smith's harness says false here even for resolved runs, so it is a flag, not a verdict
  if (report.patch_successfully_applied === false && !report.resolved) flags.push("PATCH_NOT_APPLIED");
  if (report.infra_failure) flags.push("INFRA_FAILURE");
  return flags;
}

export function harnessResultFromReport(input: {
  instanceId: string;
  generator: string;
  report: HarnessReport;
  log: string | null;
  patch: string | null;
}): HarnessResult {
  const { report } = input;
  const rest = Object.fromEntries(
    Object.entries(report).filter(([key]) => key !== "tests_status" && key !== "model_name_or_path"),
  );
  return {
    instanceId: input.instanceId,
    generator: input.generator,
    resolved: report.resolved,
    tests: testsFromReport(report),
    log: input.log,
    exitCode: input.log ? (findExitCodeMarker(input.log)?.code ?? null) : null,
    flags: reportFlags(report),
    patch: input.patch,
    metadata: { harnessReport: rest },
  };
}

// ── logs without a report ──

const LEGACY_PREFIX = /^\[[^\]\n]+\] \[([^\]\n]+)\]/m;
const LEGACY_MODEL = /Evaluation Model: (\S+)/;

/** What a log says about itself: the legacy harness prefixes every line with [testbed] [instance_id]. */
export function identifyLog(log: string): { instanceId: string | null; generator: string | null; legacy: boolean } {
  const instance = LEGACY_PREFIX.exec(log)?.[1] ?? null;
  return { instanceId: instance, generator: LEGACY_MODEL.exec(log)?.[1] ?? null, legacy: !!instance };
}
