/** Flags stored on a ValidationRun (ValidationRun.flags); each one makes a verdict less trustworthy. */
export const RUN_FLAGS = {
  MARKER_MISSING: "no exit-code marker (OPENSWE_EXIT_CODE= or >>>>> Test Exit Code) in the log",
  NO_TESTS_COLLECTED: "no test results could be read from the log",
  F2P_ABSENT_FROM_LOG: "a FAIL_TO_PASS test does not appear in the log",
  P2P_ABSENT_FROM_LOG: "a PASS_TO_PASS test does not appear in the log",
  FORCED_EXIT_CODE: "the eval script forces its exit code",
  EXIT_CODE_CONTRADICTS_TESTS: "the reported exit code disagrees with the test results",
  F2P_PASSED_ON_NEGATIVE: "a FAIL_TO_PASS test passes without the fix",
  PATCH_APPLY_FAILED: "a patch did not apply",
  OOM_KILLED: "the container ran out of memory",
  FLAKY: "repeated runs disagree",
  CANDIDATE_CHANGES_TESTS:
    "the candidate patch changes test files or test settings; those parts were left out and the tests ran as the task defines them",
  CANDIDATE_HOOKS_TEST_RUNNER:
    "the candidate patch adds code that reaches into the test runner, so its test results cannot be trusted",
} as const;

export type RunFlag = keyof typeof RUN_FLAGS;

export const describeFlag = (flag: string) => RUN_FLAGS[flag as RunFlag] ?? flag;
