import { cleanLogLine, type TestStatus, type TestStatusMap } from "../test-status";
import { pySplit } from "./python-strings";

// Ports of SWE-bench's pytest-family parsers (swebench/harness/log_parsers/python.py):
// parse_log_pytest, parse_log_pytest_options, parse_log_matplotlib, parse_log_pytest_v2 and
// parse_log_seaborn. Each gives, for the same text, exactly the statuses SWE-bench gives
// (test/unit/validation/log-parsers-parity.test.ts checks this on real logs). They scan
// each line with string operations only, so time grows linearly with the log.

export const SWE_BENCH_STATUSES: readonly TestStatus[] = ["FAILED", "PASSED", "SKIPPED", "ERROR", "XFAIL"];

/** Our additions, all off by default (SWE-bench's reading is the default). */
export type PytestExtras = {
  /** also read `path::test PASSED [ 50%]` progress lines (pytest -v without -rA, as SWE-smith logs show) */
  verboseLines?: boolean;
  /** keep spaces inside ids (`test_x[a b]`); SWE-bench cuts an id at its first space */
  spacedIds?: boolean;
  /** remove ANSI colour codes first (SWE-bench's pytest parser does not) */
  stripAnsi?: boolean;
};

const leadingStatus = (line: string) => SWE_BENCH_STATUSES.find((status) => line.startsWith(status));

/** `SKIPPED [2] path:line: reason` is pytest's skip summary; `[2]` is a count, not a test. */
const isSkipSummary = (status: string, name: string) => status === "SKIPPED" && /^\[\d+\]$/.test(name);

/** `path::test PASSED [ 50%]`: the id and status of a pytest -v progress line, if it is one. */
function verboseLine(line: string): [string, TestStatus] | undefined {
  const parts = pySplit(line);
  let last = parts.length - 1;
  if (last >= 1 && parts[last] === "]") last--;
  if (last >= 1 && /^\[?\d+%\]?$/.test(parts[last]) && (parts[last].endsWith("]") || parts[last - 1] === "["))
    last -= parts[last].startsWith("[") ? 1 : 2;
  const status = SWE_BENCH_STATUSES.find((s) => s === parts[last]);
  return status && last >= 1 && parts[0].includes("::") ? [parts.slice(0, last).join(" "), status] : undefined;
}

type NameRule = (id: string) => string;

function pytestFamily(
  log: string,
  extras: PytestExtras,
  rewriteLine: (line: string) => string,
  name: NameRule,
): TestStatusMap {
  const results: TestStatusMap = new Map();
  const progress: TestStatusMap = new Map();
  for (const raw of log.split("\n")) {
    let line = rewriteLine(extras.stripAnsi ? cleanLogLine(raw) : raw);
    const status = leadingStatus(line);
    if (!status) {
      const verbose = extras.verboseLines ? verboseLine(line) : undefined;
      if (verbose) progress.set(verbose[0], verbose[1]);
      continue;
    }
    if (status === "FAILED") line = line.replaceAll(" - ", " ");
    const parts = pySplit(line);
    if (parts.length <= 1 || isSkipSummary(parts[0], parts[1])) continue;
    const id = extras.spacedIds ? spacedId(line, parts) : parts[1];
    results.set(name(id), parts[0] as TestStatus);
  }
  // the -rA summary is the final word; progress lines only fill in tests it does not list
  for (const [id, status] of progress) if (!results.has(id)) results.set(id, status);
  return results;
}

/** The id with its spaces when it has an open bracket: `PASSED a::t[x y]` → `a::t[x y]`. */
function spacedId(line: string, parts: string[]): string {
  if (!parts[1].includes("[") || parts[1].includes("]")) return parts[1];
  const start = line.indexOf(parts[1]);
  const close = line.indexOf("]", start);
  return close < 0 ? parts[1] : line.slice(start, close + 1);
}

const same: NameRule = (id) => id;

/** parse_log_pytest: lines that start with a status word; FAILED lines lose their ` - ` separators. */
export const parseLogPytest = (log: string, extras: PytestExtras = {}) =>
  pytestFamily(log, extras, (line) => line, same);

/** parse_log_matplotlib: parse_log_pytest after naming mouse buttons by number. */
export const parseLogMatplotlib = (log: string, extras: PytestExtras = {}) =>
  pytestFamily(
    log,
    extras,
    (line) => line.replaceAll("MouseButton.LEFT", "1").replaceAll("MouseButton.RIGHT", "3"),
    same,
  );

/**
 * parse_log_pytest_options: a parametrised id whose option is an absolute path keeps only
 * the path's last part (`test_x[/tmp/abc/file]` → `test_x[/file]`), as SWE-bench's
 * `(.*?)\[(.*)\]` split gives: the name up to the first `[`, the option up to the last `]`.
 */
export const parseLogPytestOptions = (log: string, extras: PytestExtras = {}) =>
  pytestFamily(log, extras, (line) => line, shortenPathOption);

function shortenPathOption(id: string): string {
  const open = id.indexOf("[");
  const close = id.lastIndexOf("]");
  if (open < 0 || close <= open) return id;
  let option = id.slice(open + 1, close);
  if (option.startsWith("/") && !option.startsWith("//") && !option.includes("*"))
    option = "/" + option.slice(option.lastIndexOf("/") + 1);
  return `${id.slice(0, open)}[${option}]`;
}

/** Python 3's `re.sub(r"\[(\d+)m", "", line)` followed by removing the characters 1–31. */
function stripV2Escapes(line: string): string {
  const kept: string[] = [];
  let from = 0;
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    let skip = code >= 1 && code <= 31 ? 1 : 0;
    if (code === 91 /* [ */) {
      let j = i + 1;
      while (j < line.length && line.charCodeAt(j) >= 48 && line.charCodeAt(j) <= 57) j++;
      if (j > i + 1 && line[j] === "m") skip = j + 1 - i;
    }
    if (!skip) continue;
    kept.push(line.slice(from, i));
    from = i + skip;
    i += skip - 1;
  }
  if (from === 0) return line;
  kept.push(line.slice(from));
  return kept.join("");
}

/**
 * parse_log_pytest_v2 (astropy, scikit-learn, sphinx): colour codes and control characters
 * removed; a line starting with a status gives the rest of the line (a FAILED one up to its
 * first ` - `) joined by single spaces; else a line ending with a status gives what precedes it.
 */
export function parseLogPytestV2(log: string): TestStatusMap {
  const results: TestStatusMap = new Map();
  for (const raw of log.split("\n")) {
    let line = stripV2Escapes(raw);
    const leading = leadingStatus(line);
    if (leading) {
      if (leading === "FAILED") {
        const cut = line.indexOf(" - ");
        if (cut >= 0) line = line.slice(0, cut);
      }
      const parts = pySplit(line);
      if (parts.length >= 2 && !isSkipSummary(parts[0], parts[1]))
        results.set(parts.slice(1).join(" "), parts[0] as TestStatus);
    } else if (SWE_BENCH_STATUSES.some((status) => line.endsWith(status))) {
      const parts = pySplit(line);
      if (parts.length >= 2) results.set(parts.slice(0, -1).join(" "), parts[parts.length - 1] as TestStatus);
    }
  }
  return results;
}

/** parse_log_seaborn: `FAILED id`, `PASSED id`, or `id PASSED …` (the second word PASSED). */
export function parseLogSeaborn(log: string): TestStatusMap {
  const results: TestStatusMap = new Map();
  for (const line of log.split("\n")) {
    const parts = pySplit(line);
    if (parts.length < 2) continue;
    if (line.startsWith("FAILED")) results.set(parts[1], "FAILED");
    else if (line.includes(" PASSED ")) {
      if (parts[1] === "PASSED") results.set(parts[0], "PASSED");
    } else if (line.startsWith("PASSED")) results.set(parts[1], "PASSED");
  }
  return results;
}
