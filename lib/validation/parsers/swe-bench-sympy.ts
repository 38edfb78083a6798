import type { TestStatusMap } from "../test-status";
import { pySplit, pyStrip } from "./python-strings";

/**
 * The failure header SWE-bench's `(_*) (.*)\.py:(.*) (_*)` finds on a line, worked out
 * without backtracking: the name runs from after the line's first space to its last `.py:`
 * that still has a space after it, and the test from there to the line's last space
 * (`____ sympy/core/tests/test_x.py:test_y ____` → `sympy/core/tests/test_x.py:test_y`).
 */
export function sympyFailureHeader(line: string): string | undefined {
  const lastSpace = line.lastIndexOf(" ");
  if (lastSpace < 4) return undefined;
  const py = line.lastIndexOf(".py:", lastSpace - 4);
  const firstSpace = line.indexOf(" ");
  if (py < 0 || firstSpace + 1 > py) return undefined;
  return `${line.slice(firstSpace + 1, py)}.py:${line.slice(py + 4, lastSpace)}`;
}

/**
 * parse_log_sympy (swebench/harness/log_parsers/python.py): failure headers as FAILED, then
 * `test_x ok|F|E` lines (a line's last word decides; `f`, `s`, `X` and an `[OK]` tail are not
 * read, as in SWE-bench).
 */
export function parseLogSympy(log: string): TestStatusMap {
  const results: TestStatusMap = new Map();
  const lines = log.split("\n");
  for (const line of lines) {
    const header = sympyFailureHeader(line);
    if (header !== undefined) results.set(header, "FAILED");
  }
  for (const raw of lines) {
    const line = pyStrip(raw);
    if (!line.startsWith("test_")) continue;
    if (line.endsWith(" E")) results.set(pySplit(line)[0], "ERROR");
    if (line.endsWith(" F")) results.set(pySplit(line)[0], "FAILED");
    if (line.endsWith(" ok")) results.set(pySplit(line)[0], "PASSED");
  }
  return results;
}
