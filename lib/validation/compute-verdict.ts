import type { AutomatedVerdict, FailureClass, JobStatus, RunKind } from "../db/client";
import { detectFlakyTests, type AttemptOutcome } from "./detect-flaky-tests";

export type GroupRun = {
  kind: RunKind;
  status: JobStatus;
  failureClass: FailureClass | null;
  /** did the run do what its kind requires (null when it never finished) */
  behaved: boolean | null;
  passed: Map<string, boolean>;
};

export type Verdict = { verdict: AutomatedVerdict; failureClass: FailureClass | null; flakyTests: string[] };

// A run that never reached its tests explains more than one whose tests misbehaved.
const PRECEDENCE: FailureClass[] = [
  "BUILD_ERROR",
  "INFRA_ERROR",
  "TIMEOUT",
  "EVAL_SCRIPT_ERROR",
  "TESTS_DID_NOT_RUN",
  "NEGATIVE_CONTROL_PASSED",
  "POSITIVE_CONTROL_FAILED",
];

/**
 * The task's automated verdict from one validation group (docs/architecture.md):
 * VALID only when the negative control fails as it should, the positive control passes,
 * every legitimacy check holds and repeated attempts agree. Returns null while the group
 * is unfinished or was cancelled: the previous verdict stands.
 */
export function computeVerdict(runs: GroupRun[]): Verdict | null {
  const controls = runs.filter((run) => run.kind !== "CANDIDATE");
  if (!controls.length) return null;
  if (controls.some((run) => run.status === "QUEUED" || run.status === "RUNNING" || run.status === "CANCELLED"))
    return null;

  const classes = new Set(controls.map((run) => run.failureClass).filter((c): c is FailureClass => c !== null));
  const worst = PRECEDENCE.find((c) => classes.has(c)) ?? null;
  // An infrastructure failure says nothing about the task: no verdict yet, but say why.
  if (worst === "INFRA_ERROR") return { verdict: "PENDING", failureClass: "INFRA_ERROR", flakyTests: [] };
  if (worst && PRECEDENCE.indexOf(worst) <= PRECEDENCE.indexOf("TESTS_DID_NOT_RUN"))
    return { verdict: "INVALID", failureClass: worst, flakyTests: [] };

  const attempts: AttemptOutcome[] = controls.map((run) => ({
    kind: run.kind,
    behaved: run.behaved ?? false,
    passed: run.passed,
  }));
  const flakyTests = detectFlakyTests(attempts);
  if (flakyTests.length) return { verdict: "FLAKY", failureClass: null, flakyTests };

  if (worst) return { verdict: "INVALID", failureClass: worst, flakyTests: [] };
  if (
    !controls.some((run) => run.kind === "NEGATIVE_CONTROL") ||
    !controls.some((run) => run.kind === "POSITIVE_CONTROL")
  ) {
    return null;
  }
  return { verdict: "VALID", failureClass: null, flakyTests: [] };
}
