import { logLines, type TestStatus, type TestStatusMap } from "../test-status";

const WORD = "(PASSED|FAILED|ERROR|SKIPPED)";
const STATUS_FIRST = new RegExp(`^${WORD}:?\\s+(\\S.*?)\\s*$`);
const STATUS_LAST = new RegExp(`^(\\S.*?)\\s*(?::|\\.\\.\\.|\\s-)\\s*${WORD}\\s*$`);

/**
 * The fallback for any runner whose eval script prints one line per test as
 * `PASSED: id` / `FAILED id` or `id: PASSED` / `id ... FAILED`.
 */
export function parseGenericLog(log: string): TestStatusMap {
  const results: TestStatusMap = new Map();
  for (const line of logLines(log)) {
    const first = STATUS_FIRST.exec(line);
    if (first) {
      results.set(first[2], first[1] as TestStatus);
      continue;
    }
    const last = STATUS_LAST.exec(line);
    if (last) results.set(last[1], last[2] as TestStatus);
  }
  return results;
}
