import { logLines, type TestStatus, type TestStatusMap } from "../test-status";

const VERDICTS: Array<[RegExp, TestStatus]> = [
  [/^ok$/i, "PASSED"],
  [/^skipped\b/i, "SKIPPED"],
  [/^expected failure$/i, "XFAIL"],
  [/^unexpected success$/i, "FAILED"],
  [/^FAIL$/, "FAILED"],
  [/^ERROR$/, "ERROR"],
];

function verdictOf(text: string): TestStatus | undefined {
  return VERDICTS.find(([pattern]) => pattern.test(text.trim()))?.[1];
}

/**
 * unittest / Django runner at verbosity 2: `name (module.Class) ... ok`. The id is
 * whatever precedes ` ... ` — for Django tests with docstrings that is the docstring's
 * first line, which is how SWE-bench names them. The verdict may land on a later line
 * when the test prints, and `FAIL:` / `ERROR:` headers in the report confirm failures.
 */
export function parseUnittestLog(log: string): TestStatusMap {
  const results: TestStatusMap = new Map();
  let pending: string | undefined;
  for (const line of logLines(log)) {
    const header = /^(FAIL|ERROR): (.+)$/.exec(line);
    if (header) {
      results.set(header[2].trim(), header[1] === "FAIL" ? "FAILED" : "ERROR");
      pending = undefined;
      continue;
    }
    const separator = line.lastIndexOf(" ... ");
    if (separator > 0) {
      const id = line.slice(0, separator).trim();
      const verdict = verdictOf(line.slice(separator + 5));
      if (verdict) {
        results.set(id, verdict);
        pending = undefined;
      } else {
        pending = id;
      }
      continue;
    }
    if (line.endsWith(" ...")) {
      pending = line.slice(0, -4).trim();
      continue;
    }
    if (pending) {
      const verdict = verdictOf(line);
      if (verdict) {
        results.set(pending, verdict);
        pending = undefined;
      }
    }
  }
  return results;
}
