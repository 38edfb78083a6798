import { describe, expect, it } from "vitest";
import { evaluateRun, type EvaluateRunInput } from "@/lib/validation/evaluate-run";
import { computeVerdict, type GroupRun } from "@/lib/validation/compute-verdict";
import type { RunKind } from "@/lib/db/client";

const F2P = ["tests/test_ops.py::test_mean_empty"];
const P2P = ["tests/test_ops.py::test_add"];
const SOUND_SCRIPT = 'cd /testbed\npython3 -m pytest -rA tests\necho "OPENSWE_EXIT_CODE=$?"\n';

function pytestLog(statuses: Record<string, string>, code: number) {
  const lines = Object.entries(statuses).map(
    ([id, status]) => `${status} ${id}${status === "FAILED" ? " - AssertionError" : ""}`,
  );
  return [
    "collected 2 items",
    "=== short test summary info ===",
    ...lines,
    "=== 1 passed in 0.1s ===",
    `OPENSWE_EXIT_CODE=${code}`,
  ].join("\n");
}

function run(kind: RunKind, log: string, overrides: Partial<EvaluateRunInput> = {}) {
  return evaluateRun({
    kind,
    log,
    evalScript: SOUND_SCRIPT,
    failToPass: F2P,
    passToPass: P2P,
    container: { exitCode: 0, timedOut: false, oomKilled: false },
    ...overrides,
  });
}

function asGroupRun(
  kind: RunKind,
  evaluation: ReturnType<typeof run>,
  status: GroupRun["status"] = "SUCCEEDED",
): GroupRun {
  return {
    kind,
    status,
    failureClass: evaluation.failureClass,
    behaved: evaluation.behaved,
    passed: new Map(
      evaluation.testResults.filter((r) => r.group !== "OTHER").map((r) => [r.testId, r.actual === "PASSED"]),
    ),
  };
}

const failing = pytestLog({ [F2P[0]]: "FAILED", [P2P[0]]: "PASSED" }, 1);
const passing = pytestLog({ [F2P[0]]: "PASSED", [P2P[0]]: "PASSED" }, 0);

describe("one run's evaluation", () => {
  it("a negative control that fails and a positive control that passes behave, with expected vs actual per test and the line deciding it", () => {
    const negative = run("NEGATIVE_CONTROL", failing);
    expect(negative).toMatchObject({
      markerExitCode: 1,
      failureClass: null,
      flags: [],
      behaved: true,
      parserVersion: "pytest@1",
    });
    // the summary lines (3 and 4 of the log) decide, as SWE-bench's pytest parser reads them
    expect(negative.testResults).toEqual([
      { testId: F2P[0], group: "FAIL_TO_PASS", expected: "FAILED", actual: "FAILED", logLine: 3 },
      { testId: P2P[0], group: "PASS_TO_PASS", expected: "PASSED", actual: "PASSED", logLine: 4 },
    ]);
    expect(run("POSITIVE_CONTROL", passing)).toMatchObject({ failureClass: null, behaved: true });
  });

  it("classifies each way a run can go wrong, with a reason a curator can act on", () => {
    expect(run("NEGATIVE_CONTROL", passing)).toMatchObject({
      failureClass: "NEGATIVE_CONTROL_PASSED",
      flags: ["F2P_PASSED_ON_NEGATIVE"],
    });
    expect(run("POSITIVE_CONTROL", failing).failureClass).toBe("POSITIVE_CONTROL_FAILED");
    expect(run("POSITIVE_CONTROL", failing).reason).toContain(F2P[0]);
    expect(
      run("POSITIVE_CONTROL", "Traceback: SyntaxError\n", {
        container: { exitCode: 2, timedOut: false, oomKilled: false },
      }),
    ).toMatchObject({
      failureClass: "EVAL_SCRIPT_ERROR",
      flags: expect.arrayContaining(["MARKER_MISSING", "NO_TESTS_COLLECTED"]),
    });
    expect(run("NEGATIVE_CONTROL", "collected 0 items\nOPENSWE_EXIT_CODE=5\n").failureClass).toBe("TESTS_DID_NOT_RUN");
    expect(
      run("POSITIVE_CONTROL", "", {
        container: { exitCode: 137, timedOut: true, oomKilled: false },
        timeoutSeconds: 20,
      }),
    ).toMatchObject({
      failureClass: "TIMEOUT",
      reason: expect.stringContaining("20 s"),
    });
    expect(
      run("POSITIVE_CONTROL", passing, { container: { exitCode: 137, timedOut: false, oomKilled: true } }).failureClass,
    ).toBe("INFRA_ERROR");
    const patchFailed =
      ">>>>> swe-curator: applying test patch\nerror: patch failed\n>>>>> swe-curator: test patch failed to apply\n";
    expect(run("NEGATIVE_CONTROL", patchFailed)).toMatchObject({
      failureClass: "TESTS_DID_NOT_RUN",
      flags: ["PATCH_APPLY_FAILED"],
    });
  });

  it("flags an eval script that forces its exit code even when the tests look right", () => {
    const forced = 'python3 -m pytest -rA tests || true\necho "OPENSWE_EXIT_CODE=0"\nexit 0\n';
    const negative = run("NEGATIVE_CONTROL", failing.replace("OPENSWE_EXIT_CODE=1", "OPENSWE_EXIT_CODE=0"), {
      evalScript: forced,
    });
    expect(negative.flags).toEqual(expect.arrayContaining(["FORCED_EXIT_CODE", "EXIT_CODE_CONTRADICTS_TESTS"]));
    expect(negative.failureClass).toBe("EVAL_SCRIPT_ERROR");
    expect(run("POSITIVE_CONTROL", passing, { evalScript: forced }).failureClass).toBe("EVAL_SCRIPT_ERROR");
  });

  it("records a candidate patch's ground truth", () => {
    expect(run("CANDIDATE", passing).resolved).toBe(true);
    expect(run("CANDIDATE", failing)).toMatchObject({ resolved: false, failureClass: null });
  });
});

describe("the task's verdict from a validation group", () => {
  const negative = asGroupRun("NEGATIVE_CONTROL", run("NEGATIVE_CONTROL", failing));
  const positive = asGroupRun("POSITIVE_CONTROL", run("POSITIVE_CONTROL", passing));

  it("is VALID only when both controls behave", () => {
    expect(computeVerdict([negative, positive])).toEqual({ verdict: "VALID", failureClass: null, flakyTests: [] });
    expect(computeVerdict([negative])).toBeNull();
  });

  it("keeps the previous verdict while a run is unfinished or was cancelled", () => {
    expect(computeVerdict([negative, { ...positive, status: "RUNNING" }])).toBeNull();
    expect(computeVerdict([negative, { ...positive, status: "CANCELLED" }])).toBeNull();
  });

  it("names the worst failure, and leaves the verdict PENDING on an infrastructure error", () => {
    const badPositive = asGroupRun("POSITIVE_CONTROL", run("POSITIVE_CONTROL", failing));
    expect(computeVerdict([negative, badPositive])).toMatchObject({
      verdict: "INVALID",
      failureClass: "POSITIVE_CONTROL_FAILED",
    });
    expect(computeVerdict([{ ...negative, failureClass: "TIMEOUT", status: "FAILED" }, badPositive])).toMatchObject({
      failureClass: "TIMEOUT",
    });
    expect(computeVerdict([{ ...negative, failureClass: "INFRA_ERROR", status: "FAILED" }, positive])).toMatchObject({
      verdict: "PENDING",
      failureClass: "INFRA_ERROR",
    });
  });

  it("is FLAKY when repeated attempts disagree, naming the tests", () => {
    const flakyPositive = asGroupRun(
      "POSITIVE_CONTROL",
      run("POSITIVE_CONTROL", pytestLog({ [F2P[0]]: "PASSED", [P2P[0]]: "FAILED" }, 1)),
    );
    expect(computeVerdict([negative, positive, flakyPositive])).toEqual({
      verdict: "FLAKY",
      failureClass: null,
      flakyTests: [P2P[0]],
    });
  });
});
