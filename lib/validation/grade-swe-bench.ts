import type { TestOutcome } from "../db/client";
import { logParserForRepo, parseTestLog } from "./parsers/log-parsers";
import type { TestStatus, TestStatusMap } from "./test-status";

// SWE-bench's grading of one evaluation log (swebench/harness/grading.py): which part of
// the log is test output, when a log counts as not evaluated, and how FAIL_TO_PASS /
// PASS_TO_PASS tests become `resolved`. `resolved` comes from the parsed statuses only,
// never from a summary line the log prints.

const START_TEST_OUTPUT = ">>>>> Start Test Output";
const END_TEST_OUTPUT = ">>>>> End Test Output";
const TEST_EXIT_CODE = ">>>>> Test Exit Code";
/** Lines the harness prints when it did not get to run the tests. */
const NOT_EVALUATED = [
  ">>>>> Patch Apply Failed",
  ">>>>> Reset Failed",
  ">>>>> Tests Errored",
  ">>>>> Tests Timed Out",
];

/** Evidence in a log with no parsed test that a runner did run (grading.py's SUITE_RAN), as plain checks. */
const SUITE_RAN: Array<(log: string) => boolean> = [
  (log) => /Executed [1-9]\d* of \d/.test(log),
  (log) => /TOTAL: [1-9]\d* (?:SUCCESS|FAILED)/.test(log),
  (log) => /(?<!\d)0*[1-9]\d* passing/.test(log),
  (log) => /Tests:\s+[1-9]/.test(log),
  (log) => /Test Suites:(?:\s+\d+ \w+,)*\s+[1-9]\d* total/.test(log),
  (log) => /^# tests [1-9]/m.test(log),
  (log) => /(?<!\d)0*[1-9]\d* specs?, \d+ failures?/.test(log),
  (log) => /': ok$/m.test(log),
];

/** `content.split(START)[1].split(END)[0]`: the text between the first start marker and the next end marker. */
export function sweBenchTestOutput(log: string): string | null {
  const start = log.indexOf(START_TEST_OUTPUT);
  if (start < 0 || !log.includes(END_TEST_OUTPUT)) return null;
  const from = start + START_TEST_OUTPUT.length;
  const nextStart = log.indexOf(START_TEST_OUTPUT, from);
  const segment = log.slice(from, nextStart < 0 ? log.length : nextStart);
  const end = segment.indexOf(END_TEST_OUTPUT);
  return end < 0 ? segment : segment.slice(0, end);
}

/** `>>>>> Test Exit Code: n`, the test command's own exit status the eval script records. */
export function recordedTestExitCode(log: string): number | null {
  const at = log.indexOf(TEST_EXIT_CODE);
  if (at < 0) return null;
  const match = /^:\s*(-?\d+)/.exec(log.slice(at + TEST_EXIT_CODE.length, at + TEST_EXIT_CODE.length + 64));
  return match ? Number(match[1]) : null;
}

export type ParsedHarnessLog = {
  parser: string;
  statuses: TestStatusMap;
  /** false when SWE-bench would not grade the log: the harness failed, or nothing shows tests ran */
  evaluated: boolean;
  reason: string | null;
};

/**
 * The statuses SWE-bench's get_logs_eval reads from a log: the marked test output (or the
 * whole log when that parses to nothing), with the repository's parser. Logs of the legacy
 * harness (SWE-bench 1.x, no markers) are parsed whole, as that harness did.
 */
export function parseHarnessLog(
  log: string,
  options: { repo?: string | null; parser?: string | null } = {},
): ParsedHarnessLog {
  const parserName = options.parser ?? logParserForRepo(options.repo) ?? null;
  const badLine = NOT_EVALUATED.find((line) => log.includes(line));
  const output = sweBenchTestOutput(log);
  let parsed = parseTestLog(output ?? log, parserName);
  if (parsed.results.size === 0 && output !== null) parsed = parseTestLog(log, parserName);
  const result = (evaluated: boolean, reason: string | null): ParsedHarnessLog => ({
    parser: parsed.parser,
    statuses: parsed.results,
    evaluated,
    reason,
  });
  if (badLine) return result(false, `the harness reported "${badLine.slice(6)}"`);
  if (parsed.results.size === 0 && !SUITE_RAN.some((ran) => ran(log)))
    return result(false, "no test results in the log");
  const exitCode = recordedTestExitCode(log);
  const anyFailure = [...parsed.results.values()].some((status) => status === "FAILED" || status === "ERROR");
  if (exitCode !== null && exitCode !== 0 && parsed.results.size > 0 && !anyFailure) {
    return result(false, `the test command exited with ${exitCode} but the log reports no failing test`);
  }
  return result(true, null);
}

const PASSING = new Set<string>(["PASSED", "XFAIL"]);

/**
 * The status-map key for a test id. Exact ids match exactly; an id cut off inside its
 * parameters (more `[` than `]`, as 676 SWE-bench Verified ids are) matches by prefix
 * when every candidate agrees on pass or fail (grading.py's _resolve_case).
 */
export function resolveTestId(id: string, statuses: TestStatusMap): string | undefined {
  if (statuses.has(id)) return id;
  if (count(id, "[") <= count(id, "]")) return undefined;
  const matches = [...statuses.keys()].filter((key) => key.startsWith(id));
  if (!matches.length) return undefined;
  const passing = new Set(matches.map((key) => PASSING.has(statuses.get(key)!)));
  return passing.size === 1 ? matches[0] : undefined;
}

const count = (text: string, char: string) => text.split(char).length - 1;

type Verdict = "success" | "failure" | "neither";

/** FAIL_TO_PASS: passed or xfail succeeds; failed, error, skipped or absent fails. */
function failToPassVerdict(status: TestStatus | undefined): Verdict {
  if (status !== undefined && PASSING.has(status)) return "success";
  if (status === undefined || status === "FAILED" || status === "ERROR" || status === "SKIPPED") return "failure";
  return "neither";
}

/** PASS_TO_PASS: as FAIL_TO_PASS, except that a skipped test is not a regression. */
const passToPassVerdict = (status: TestStatus | undefined): Verdict =>
  status === "SKIPPED" ? "success" : failToPassVerdict(status);

export type GradedTest = {
  testId: string;
  group: "FAIL_TO_PASS" | "PASS_TO_PASS";
  status: TestStatus | undefined;
  verdict: Verdict;
};

export type SweBenchGrade = {
  tests: GradedTest[];
  tests_status: Record<"FAIL_TO_PASS" | "PASS_TO_PASS", { success: string[]; failure: string[] }>;
  resolved: boolean;
};

/** get_eval_tests_report + get_resolution_status (PASS_AND_FAIL): resolved means every F2P and P2P test succeeded. */
export function gradeTests(
  statuses: TestStatusMap,
  failToPass: string[],
  passToPass: string[],
  evaluated = true,
): SweBenchGrade {
  const seen: TestStatusMap = evaluated ? statuses : new Map();
  const tests: GradedTest[] = [];
  const grade = (group: GradedTest["group"], ids: string[], verdictOf: (status: TestStatus | undefined) => Verdict) => {
    for (const testId of ids) {
      const key = resolveTestId(testId, seen);
      const status = key === undefined ? undefined : seen.get(key);
      tests.push({ testId, group, status, verdict: verdictOf(status) });
    }
  };
  grade("FAIL_TO_PASS", failToPass, failToPassVerdict);
  grade("PASS_TO_PASS", passToPass, passToPassVerdict);
  const bucket = (group: GradedTest["group"]) => ({
    success: tests.filter((t) => t.group === group && t.verdict === "success").map((t) => t.testId),
    failure: tests.filter((t) => t.group === group && t.verdict === "failure").map((t) => t.testId),
  });
  const tests_status = { FAIL_TO_PASS: bucket("FAIL_TO_PASS"), PASS_TO_PASS: bucket("PASS_TO_PASS") };
  // compute_fail_to_pass / compute_pass_to_pass are 1 (RESOLVED_FULL needs both) exactly when nothing failed
  const full = (b: { failure: string[] }) => b.failure.length === 0;
  return {
    tests,
    tests_status,
    resolved: evaluated && full(tests_status.FAIL_TO_PASS) && full(tests_status.PASS_TO_PASS),
  };
}

/** What a graded test shows on a TestResult row: PASSED when it succeeded, else what the log said (MISSING when absent). */
export function gradedOutcome(test: GradedTest): TestOutcome {
  if (test.verdict === "success") return test.status === "SKIPPED" ? "SKIPPED" : "PASSED";
  if (test.status === undefined) return "MISSING";
  return test.status === "FAILED" || test.status === "ERROR" || test.status === "SKIPPED" ? test.status : "FAILED";
}
