// Did a reviewer run a reproducer? SWE-Review counts a review that executed code — a
// reproduction script or the tests — apart from one that only read the patch. Until the
// trajectory inspector records step kinds for every import, the step's action is classified
// here: a step kind, when present, wins; otherwise a command that starts an interpreter or a
// test runner counts, and installing packages or reading files does not.

const RUNS_CODE = /(?:^|[\s;&|(`])(?:python[0-9.]*|pytest|py\.test|tox|nosetests|node|ruby|go\s+test|cargo\s+test|npm\s+(?:run\s+)?test|mvn\s+test|gradle\s+test|(?:ba)?sh\s+\S+\.sh)(?=[\s;&|)`]|$)/i;
const NOT_A_RUN = /(?:^|\s)(?:-m\s+pip|pip[0-9.]*\s+install|--version|-V(?:\s|$))/i;
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
