import type { FailureClass, RunKind, TestGroup, TestOutcome } from "../db/client";
import { checkLegitimacy } from "./check-legitimacy";
import { classifyFailure } from "./classify-failure";
import { findExitCodeMarker, sliceTestOutput } from "./exit-code-markers";
import { describeTampering, type GuardedCandidate } from "./guard-candidate-patch";
import type { RunFlag } from "./legitimacy-flags";
import { lookupTest } from "./match-test-ids";
import { decidingLines } from "./parsers/deciding-lines";
import { parserVersionOf, parseTestLog } from "./parsers/log-parsers";
import { failedPatchName } from "./runner-markers";
import { statusToOutcome, type TestStatusMap } from "./test-status";

export type ContainerOutcome = { exitCode: number | null; timedOut: boolean; oomKilled: boolean };

export type EvaluateRunInput = {
  kind: RunKind;
  log: string;
  evalScript: string;
  failToPass: string[];
  passToPass: string[];
  container: ContainerOutcome;
  logParser?: string | null;
  timeoutSeconds?: number;
  memoryMb?: number;
  /** candidate runs: what guardCandidatePatch left out of the patch and found in it */
  guard?: Pick<GuardedCandidate, "protectedPaths" | "runnerHooks">;
};

/** `logLine`: the 1-based line of the run's log that decided `actual` (null when no line names the test) */
export type TestResultRow = {
  testId: string;
  group: TestGroup;
  expected: TestOutcome;
  actual: TestOutcome;
  logLine: number | null;
};
type UnplacedRow = Omit<TestResultRow, "logLine">;

export type RunEvaluation = {
  markerExitCode: number | null;
  parser: string;
  /** the parser with its version, as the run records it ("pytest@1") */
  parserVersion: string;
  results: TestStatusMap;
  testResults: TestResultRow[];
  flags: RunFlag[];
  failureClass: FailureClass | null;
  reason: string | null;
  /** did the run do what its kind requires (negative: fail, positive/candidate: pass) */
  behaved: boolean;
  /** for candidate runs: the patch's ground truth */
  resolved: boolean | null;
  /** for candidate runs: test files and settings it touched, and where it hooks the runner */
  touchedTestPaths: string[];
};

/** Other tests are kept for context but capped: a suite of 20k tests should not become 20k rows. */
export const MAX_OTHER_TEST_RESULTS = 500;

function expectedOutcome(kind: RunKind, group: TestGroup): TestOutcome {
  return kind === "NEGATIVE_CONTROL" && group === "FAIL_TO_PASS" ? "FAILED" : "PASSED";
}

function testResultRows(
  kind: RunKind,
  results: TestStatusMap,
  failToPass: string[],
  passToPass: string[],
): UnplacedRow[] {
  const rows = new Map<string, UnplacedRow>();
  const add = (testId: string, group: TestGroup) => {
    if (!rows.has(testId))
      rows.set(testId, {
        testId,
        group,
        expected: expectedOutcome(kind, group),
        actual: statusToOutcome(lookupTest(results, testId)),
      });
  };
  failToPass.forEach((id) => add(id, "FAIL_TO_PASS"));
  passToPass.forEach((id) => add(id, "PASS_TO_PASS"));
  let others = 0;
  for (const [id, status] of results) {
    if (rows.has(id) || others >= MAX_OTHER_TEST_RESULTS) continue;
    rows.set(id, { testId: id, group: "OTHER", expected: statusToOutcome(status), actual: statusToOutcome(status) });
    others++;
  }
  return [...rows.values()];
}

function withDecidingLines(log: string, rows: UnplacedRow[]): TestResultRow[] {
  const lines = decidingLines(
    log,
    rows.filter((row) => row.actual !== "MISSING").map((row) => row.testId),
  );
  return rows.map((row) => ({ ...row, logLine: lines.get(row.testId) ?? null }));
}

/** Everything we conclude from one finished container run: results, legitimacy flags, failure class. */
export function evaluateRun(input: EvaluateRunInput): RunEvaluation {
  const marker = findExitCodeMarker(input.log);
  const markerExitCode = marker?.code ?? null;
  const sliced = sliceTestOutput(input.log);
  let parsed = sliced !== null ? parseTestLog(sliced, input.logParser) : undefined;
  if (!parsed || parsed.results.size === 0) parsed = parseTestLog(input.log, input.logParser);
  const failedPatch = failedPatchName(input.log);
  const results = parsed.results;

  const flags = new Set<RunFlag>(
    input.container.timedOut || failedPatch
      ? [] // nothing ran to completion: only the cause is worth flagging
      : checkLegitimacy({
          kind: input.kind,
          log: input.log,
          evalScript: input.evalScript,
          markerExitCode,
          results,
          failToPass: input.failToPass,
          passToPass: input.passToPass,
        }),
  );
  if (failedPatch) flags.add("PATCH_APPLY_FAILED");
  if (input.container.oomKilled) flags.add("OOM_KILLED");

  const exitCode = markerExitCode ?? input.container.exitCode;
  const { failureClass, reason } = classifyFailure({
    kind: input.kind,
    flags: [...flags],
    exitCode,
    timedOut: input.container.timedOut,
    timeoutSeconds: input.timeoutSeconds,
    oomKilled: input.container.oomKilled,
    memoryMb: input.memoryMb,
    failedPatch,
    results,
    failToPass: input.failToPass,
    passToPass: input.passToPass,
  });
  const behaved = failureClass === null && reason === null;
  // the tests ran without the candidate's test changes, so their outcome stands; a runner
  // hook in the code cannot be left out, so that candidate is never counted as resolved
  const tampering = input.kind === "CANDIDATE" && input.guard ? describeTampering(input.guard) : null;
  tampering?.flags.forEach((flag) => flags.add(flag));
  return {
    markerExitCode,
    parser: parsed.parser,
    parserVersion: parserVersionOf(parsed.parser),
    results,
    testResults: withDecidingLines(input.log, testResultRows(input.kind, results, input.failToPass, input.passToPass)),
    flags: [...flags],
    failureClass: failureClass ?? (tampering?.flags.length ? "CANDIDATE_TOUCHED_TESTS" : null),
    reason: [tampering?.reason, reason].filter(Boolean).join(" ") || null,
    behaved,
    resolved: input.kind === "CANDIDATE" ? behaved && (tampering?.trustworthy ?? true) : null,
    touchedTestPaths: tampering?.touchedTestPaths ?? [],
  };
}
