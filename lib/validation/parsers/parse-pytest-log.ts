import { logLines, type TestStatus, type TestStatusMap } from "../test-status";

const STATUSES: TestStatus[] = ["PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL"];
// `tests/x.py::test_a PASSED [ 50%]` (pytest -v, or the v2 layout some suites print)
const TRAILING_STATUS = /^(\S.*?::.*?)\s+(PASSED|FAILED|ERROR|SKIPPED|XFAIL)(?:\s+\[\s*\d+%\])?\s*$/;

/**
 * pytest with `-rA`: summary lines that start with a status word (`FAILED id - reason`),
 * plus verbose lines that end with one. Lines whose id would start with a space or a
 * bracket are log records or counters (`ERROR    root:…`, `PASSED  [100%]`), not tests.
 */
export function parsePytestLog(log: string): TestStatusMap {
  const results: TestStatusMap = new Map();
  const summary: TestStatusMap = new Map();
  for (const line of logLines(log)) {
    const leading = STATUSES.find((status) => line.startsWith(`${status} `));
    if (leading) {
      let id = line.slice(leading.length + 1);
      if (id.startsWith(" ") || id.startsWith("[") || !id) continue;
      if (leading === "FAILED" || leading === "ERROR") {
        const reason = id.indexOf(" - ");
        if (reason > 0) id = id.slice(0, reason);
      }
      summary.set(id.trimEnd(), leading);
      continue;
    }
    const trailing = TRAILING_STATUS.exec(line);
    if (trailing) results.set(trailing[1], trailing[2] as TestStatus);
  }
  // The `-rA` summary is the final word on each test; verbose lines fill in the rest.
  for (const [id, status] of summary) results.set(id, status);
  return results;
}
