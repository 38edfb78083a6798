import { cleanLogLine } from "../test-status";

const START = ">>>>> Start Test Output";
const END = ">>>>> End Test Output";

/** The lines (0-based, end exclusive) that hold the test command's output, or the whole log without markers. */
function testOutputRange(lines: readonly string[]): { from: number; to: number } {
  const start = lines.findIndex((line) => line.includes(START));
  if (start < 0) return { from: 0, to: lines.length };
  const end = lines.findIndex((line, index) => index > start && line.includes(END));
  return { from: start + 1, to: end < 0 ? lines.length : end };
}

/**
 * The 1-based line of `log` that decided each test's status. Every parser reads the log line
 * by line and a later line naming a test overrides an earlier one (pytest's summary over its
 * progress line, unittest's "... ok" after the test's header), so the deciding line is the
 * last line of the test output naming the test. A test no line names (MISSING) gets none.
 */
export function decidingLines(log: string, testIds: Iterable<string>): Map<string, number> {
  const lines = log.split("\n");
  const { from, to } = testOutputRange(lines);
  const unresolved = new Set(testIds);
  const found = new Map<string, number>();
  for (let index = to - 1; index >= from && unresolved.size > 0; index--) {
    const line = cleanLogLine(lines[index]);
    for (const id of unresolved) {
      if (!line.includes(id)) continue;
      found.set(id, index + 1);
      unresolved.delete(id);
    }
  }
  return found;
}
