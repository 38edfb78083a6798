import { logLines, type TestStatus, type TestStatusMap } from "../test-status";

const LETTERS: Record<string, TestStatus> = { ok: "PASSED", F: "FAILED", E: "ERROR", f: "XFAIL", s: "SKIPPED", X: "FAILED" };
const RESULT_LINE = /^(test_\S+)\s+(ok|F|E|f|s|X)(?:\s+\[(?:OK|FAIL)\])?\s*$/;
// `________ sympy/core/tests/test_x.py:test_name ________` opens a failure's traceback
const FAILURE_HEADER = /^_+ (?:\S+\.py:)(\S+) _+$/;

/** sympy's `bin/test --verbose`: `test_name ok|F|E` lines and `___ file.py:test ___` failure headers. */
export function parseSympyLog(log: string): TestStatusMap {
  const results: TestStatusMap = new Map();
  for (const line of logLines(log)) {
    const result = RESULT_LINE.exec(line.trim());
    if (result) {
      results.set(result[1], LETTERS[result[2]]);
      continue;
    }
    const header = FAILURE_HEADER.exec(line.trim());
    if (header && !results.has(header[1])) results.set(header[1], "FAILED");
  }
  return results;
}
