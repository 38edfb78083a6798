import type { TestGroup, TestOutcome } from "../../db/client";

// What a SWE-bench harness result becomes once mapped (formats/swe-bench-report), and what
// write/write-harness-result.ts stores: the shape both sides share, so neither imports the other.

export type HarnessTest = { testId: string; group: TestGroup; expected: TestOutcome; actual: TestOutcome };

export type HarnessResult = {
  instanceId: string;
  generator: string;
  resolved: boolean | null;
  tests: HarnessTest[];
  log: string | null;
  exitCode: number | null;
  flags: string[];
  /** the candidate patch as the harness applied it (patch.diff), when present */
  patch: string | null;
  metadata: Record<string, unknown>;
};
