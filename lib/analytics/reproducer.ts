import { sql, type SqlFragment } from "../tasks/sql";

// Did a reviewer run a reproducer? SWE-Review counts a review that executed code — a
// reproduction script or the tests — apart from one that only read the patch. Until the
// trajectory inspector records step kinds for every import, the step's action is classified
// here: a step kind, when present, wins; otherwise a command that starts an interpreter or a
// test runner counts, and installing packages or reading files does not.

// One pattern text for both engines: JavaScript classifies a single step, PostgreSQL (`~*`,
// the same case-insensitive match) classifies every step of the reviewer page in one query.
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

/** SQL twin of isReproducerStep over a trajectory_steps row aliased `s` (patterns bound as parameters). */
export function reproducerStepSql(): SqlFragment {
  return sql`(CASE WHEN coalesce(s.metadata->>'kind', '') <> '' THEN lower(s.metadata->>'kind') = ANY(${[...REPRODUCER_KINDS]}::text[])
    WHEN s.action IS NULL THEN FALSE
    ELSE s.action ~* ${RUNS_CODE_PATTERN} AND s.action !~* ${NOT_A_RUN_PATTERN} END)`;
}
