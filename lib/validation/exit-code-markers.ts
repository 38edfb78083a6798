export type ExitCodeMarker = { code: number; marker: "OPENSWE_EXIT_CODE" | "SWEBENCH_TEST_EXIT_CODE" | "SWEBENCH_V5" };

// The marker must be the start of its own line, so the xtrace echo (`+ echo OPENSWE_EXIT_CODE=1`)
// and test output that merely mentions it do not count.
const OPENSWE = /^OPENSWE_EXIT_CODE=(\d+)\s*$/gm;
// SWE-bench v5 prints `>>>>> Test Exit Code: n`; under `set -x` the assignment shows as `+ SWEBENCH_TEST_EXIT_CODE=n`.
const SWEBENCH_V5 = />>>>> Test Exit Code: (\d+)/g;
const SWEBENCH_VARIABLE = /^(?:\++ )?SWEBENCH_TEST_EXIT_CODE=(\d+)\s*$/gm;

function lastMatch(log: string, pattern: RegExp): { code: number; index: number } | undefined {
  let last: RegExpExecArray | undefined;
  for (const match of log.matchAll(pattern)) last = match as RegExpExecArray;
  return last ? { code: Number(last[1]), index: last.index } : undefined;
}

/** The test command's exit code as the eval script reported it; the latest marker wins. */
export function findExitCodeMarker(log: string): ExitCodeMarker | null {
  const candidates = [
    { marker: "OPENSWE_EXIT_CODE" as const, found: lastMatch(log, OPENSWE) },
    { marker: "SWEBENCH_V5" as const, found: lastMatch(log, SWEBENCH_V5) },
    { marker: "SWEBENCH_TEST_EXIT_CODE" as const, found: lastMatch(log, SWEBENCH_VARIABLE) },
  ].filter((candidate) => candidate.found);
  if (!candidates.length) return null;
  const latest = candidates.reduce((a, b) => (b.found!.index > a.found!.index ? b : a));
  return { code: latest.found!.code, marker: latest.marker };
}

const START = ">>>>> Start Test Output";
const END = ">>>>> End Test Output";

/**
 * The test command's own output when the script delimits it (SWE-bench markers, matched
 * as substrings because `set -x` prints them as `+ : '>>>>> Start Test Output'`).
 */
export function sliceTestOutput(log: string): string | null {
  const start = log.indexOf(START);
  if (start < 0) return null;
  const from = log.indexOf("\n", start);
  const end = log.indexOf(END, from < 0 ? start : from);
  if (from < 0) return "";
  return end < 0 ? log.slice(from + 1) : log.slice(from + 1, log.lastIndexOf("\n", end) + 1);
}
