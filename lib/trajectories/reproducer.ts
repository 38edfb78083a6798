// Did a reviewer run a reproducer? SWE-Review counts a review that executed code — a
// reproduction script or the tests — apart from one that only read the patch. A kind the
// format recorded (OpenHands' event kinds, in metadata.kind) wins; otherwise a command that
// starts an interpreter or a test runner counts, and installing packages or reading files does
// not. The importer decides it once per trajectory as it writes the steps (write-trajectory.ts,
// the trajectories.ran_reproducer column); the reviewer analytics read that column.
const RUNS_CODE_PATTERN = String.raw`(?:^|[\s;&|(\`])(?:python[0-9.]*|pytest|py\.test|tox|nosetests|node|ruby|go\s+test|cargo\s+test|npm\s+(?:run\s+)?test|mvn\s+test|gradle\s+test|(?:ba)?sh\s+\S+\.sh)(?=[\s;&|)\`]|$)`;
const NOT_A_RUN_PATTERN = String.raw`(?:^|\s)(?:-m\s+pip|pip[0-9.]*\s+install|--version|-V(?:\s|$))`;
const RUNS_CODE = new RegExp(RUNS_CODE_PATTERN, "i");
const NOT_A_RUN = new RegExp(NOT_A_RUN_PATTERN, "i");
const REPRODUCER_KINDS = new Set(["reproduce", "reproducer", "run_tests", "test", "execute"]);

export type StepFacts = { action: string | null; kind?: string | null };

export function isReproducerStep(step: StepFacts): boolean {
  if (step.kind) return REPRODUCER_KINDS.has(step.kind.toLowerCase());
  if (!step.action) return false;
  return RUNS_CODE.test(step.action) && !NOT_A_RUN.test(step.action);
}

/** null when the review recorded no steps: nothing says whether it ran anything. */
export function ranReproducer(steps: StepFacts[]): boolean | null {
  if (steps.length === 0) return null;
  return steps.some(isReproducerStep);
}

/** A step as an importer hands it over: its recorded kind, if any, is in metadata.kind. */
export function reproducerFactsOf(step: { action: string | null; metadata?: unknown }): StepFacts {
  const kind = (step.metadata as { kind?: unknown } | null | undefined)?.kind;
  return { action: step.action, kind: typeof kind === "string" ? kind : null };
}
