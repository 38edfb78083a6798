import type { FailureClass, RunKind } from "../db/client";
import type { RunFlag } from "./legitimacy-flags";
import { lookupTest } from "./match-test-ids";
import { isPassing, type TestStatusMap } from "./test-status";

export type RunOutcomeFacts = {
  kind: RunKind;
  flags: RunFlag[];
  /** the marker's exit code, else the container's */
  exitCode: number | null;
  timedOut: boolean;
  timeoutSeconds?: number;
  oomKilled: boolean;
  memoryMb?: number;
  failedPatch: string | null;
  results: TestStatusMap;
  failToPass: string[];
  passToPass: string[];
};

export type Classification = { failureClass: FailureClass | null; reason: string | null };

const list = (ids: string[]) =>
  ids.length > 3 ? `${ids.slice(0, 3).join(", ")} and ${ids.length - 3} more` : ids.join(", ");

/**
 * Why a run did not do what its kind requires, as a failure class and a sentence a
 * curator can act on. Order matters: a run that never got to run its tests is not
 * blamed on the tests.
 */
export function classifyFailure(facts: RunOutcomeFacts): Classification {
  const has = (flag: RunFlag) => facts.flags.includes(flag);
  const statusOf = (id: string) => lookupTest(facts.results, id);
  const notPassing = (ids: string[]) => ids.filter((id) => !isPassing(statusOf(id)));

  if (facts.oomKilled) {
    return {
      failureClass: "INFRA_ERROR",
      reason: `The container ran out of memory${facts.memoryMb ? ` (limit ${facts.memoryMb} MB)` : ""}; raise the environment's memory limit`,
    };
  }
  if (facts.timedOut) {
    return {
      failureClass: "TIMEOUT",
      reason: `The run exceeded its wall-clock limit${facts.timeoutSeconds ? ` of ${facts.timeoutSeconds} s` : ""} and was killed`,
    };
  }
  if (facts.failedPatch) {
    if (facts.kind === "POSITIVE_CONTROL" && facts.failedPatch === "fix") {
      return {
        failureClass: "POSITIVE_CONTROL_FAILED",
        reason: "The fix patch does not apply on top of the test patch",
      };
    }
    if (facts.kind === "CANDIDATE" && facts.failedPatch === "candidate")
      return { failureClass: null, reason: "The candidate patch does not apply" };
    return {
      failureClass: "TESTS_DID_NOT_RUN",
      reason: `The ${facts.failedPatch} patch does not apply to the environment's base commit`,
    };
  }
  if (has("FORCED_EXIT_CODE"))
    return {
      failureClass: "EVAL_SCRIPT_ERROR",
      reason:
        "The eval script forces its exit code (exit 0, || true or a constant marker), so its result means nothing",
    };
  if (has("MARKER_MISSING")) {
    return {
      failureClass: "EVAL_SCRIPT_ERROR",
      reason: `The eval script never printed its exit-code marker (container exit code ${facts.exitCode ?? "unknown"})`,
    };
  }
  if (has("NO_TESTS_COLLECTED"))
    return {
      failureClass: "TESTS_DID_NOT_RUN",
      reason: "No test results could be read from the log: the tests did not run or the log parser does not fit",
    };
  const absent = facts.failToPass.filter((id) => !statusOf(id));
  if (absent.length && facts.kind !== "CANDIDATE")
    return { failureClass: "TESTS_DID_NOT_RUN", reason: `FAIL_TO_PASS tests absent from the log: ${list(absent)}` };

  if (facts.kind === "NEGATIVE_CONTROL") {
    const passing = facts.failToPass.filter((id) => isPassing(statusOf(id)));
    if (passing.length)
      return {
        failureClass: "NEGATIVE_CONTROL_PASSED",
        reason: `Without the fix these FAIL_TO_PASS tests already pass: ${list(passing)}`,
      };
    if (facts.exitCode === 0)
      return { failureClass: "NEGATIVE_CONTROL_PASSED", reason: "Without the fix the eval script still exits 0" };
    return { failureClass: null, reason: null };
  }
  const failing = notPassing([...facts.failToPass, ...facts.passToPass]);
  if (facts.kind === "CANDIDATE") {
    if (failing.length) return { failureClass: null, reason: `Not resolved: ${list(failing)} did not pass` };
    if (facts.exitCode !== 0)
      return { failureClass: null, reason: `Not resolved: the eval script exited ${facts.exitCode}` };
    return { failureClass: null, reason: null };
  }
  if (failing.length)
    return {
      failureClass: "POSITIVE_CONTROL_FAILED",
      reason: `With the fix these tests still do not pass: ${list(failing)}`,
    };
  if (facts.exitCode !== 0)
    return { failureClass: "POSITIVE_CONTROL_FAILED", reason: `With the fix the eval script exits ${facts.exitCode}` };
  return { failureClass: null, reason: null };
}
