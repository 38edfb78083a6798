import type { TestStatusMap } from "../test-status";
import { isPyWhitespace, pySplit, pyStrip } from "./python-strings";

// A port of SWE-bench's parse_log_django (swebench/harness/log_parsers/python.py), line for
// line, including its three multi-line "… ... <interrupting output>\nok" patterns, which are
// matched here by a single forward scan instead of SWE-bench's backtracking regexes.

const PASS_SUFFIXES = [" ... ok", " ... OK", " ...  OK"];
const DJANGO_7188 = "Applying sites.0002_alter_domain_unique...test_no_migrations";

function lineVerdicts(log: string, results: TestStatusMap) {
  let previous: string | undefined;
  for (const raw of log.split("\n")) {
    let line = pyStrip(raw);
    if (line.includes("--version is equivalent to version"))
      results.set("--version is equivalent to version", "PASSED");
    const separator = line.indexOf(" ... ");
    if (separator >= 0) previous = line.slice(0, separator);
    const suffix = PASS_SUFFIXES.find((s) => line.endsWith(s));
    if (suffix) {
      if (line.startsWith(DJANGO_7188)) line = pyStrip(line.slice(line.indexOf("...") + 3));
      const at = line.lastIndexOf(suffix);
      results.set(at >= 0 ? line.slice(0, at) : line, "PASSED");
    }
    const skipped = line.indexOf(" ... skipped");
    if (skipped >= 0) results.set(line.slice(0, skipped), "SKIPPED");
    if (line.endsWith(" ... FAIL")) results.set(line.slice(0, line.indexOf(" ... FAIL")), "FAILED");
    if (line.startsWith("FAIL:")) {
      const id = pySplit(line)[1];
      if (id !== undefined) results.set(id, "FAILED");
    }
    if (line.endsWith(" ... ERROR")) results.set(line.slice(0, line.indexOf(" ... ERROR")), "ERROR");
    if (line.startsWith("ERROR:")) {
      const id = pySplit(line)[1];
      if (id !== undefined) results.set(id, "ERROR");
    }
    if (line.startsWith("ok") && previous !== undefined) results.set(previous, "PASSED");
  }
}

const isLineEnd = (log: string, at: number) => at === log.length || log[at] === "\n";

/** Where `ok` alone on the next line closes an interrupted verdict: the index just past it, or -1. */
function okLineAfter(log: string, newline: number): number {
  return log[newline] === "\n" && log.startsWith("ok", newline + 1) && isLineEnd(log, newline + 3) ? newline + 3 : -1;
}

type Tail = (log: string, from: number) => number;

// `^(.*?)\s\.\.\.\s<phrase><tail>` at the line starting at `start`: the shortest name
// whose ` ... <phrase>` is followed by a matching tail. Each position of the line is tried
// once with fixed-length checks, so a line costs time proportional to its length.
function matchInterrupted(
  log: string,
  start: number,
  lineEnd: number,
  phrase: string,
  tail: Tail,
): { name: string; end: number } | undefined {
  for (let i = start; i <= lineEnd && i + 4 < log.length; i++) {
    if (log.charCodeAt(i + 1) !== 46 || !log.startsWith("...", i + 1)) continue;
    if (!isPyWhitespace(log.charCodeAt(i)) || !isPyWhitespace(log.charCodeAt(i + 4)) || !log.startsWith(phrase, i + 5))
      continue;
    const end = tail(log, i + 5 + phrase.length);
    if (end >= 0) return { name: log.slice(start, i), end };
  }
  return undefined;
}

/** Positions of every ` silenced).\nok` that ends its line, for the lazy DOTALL pattern. */
function silencedTerminators(log: string): number[] {
  const found: number[] = [];
  const needle = " silenced).\nok";
  for (let at = log.indexOf(needle); at >= 0; at = log.indexOf(needle, at + 1))
    if (isLineEnd(log, at + needle.length)) found.push(at + needle.length);
  return found;
}

function firstAtOrAfter(sorted: number[], min: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid] < min) low = mid + 1;
    else high = mid;
  }
  return low < sorted.length ? sorted[low] : -1;
}

function interruptedPatterns(log: string): Array<{ phrase: string; tail: Tail }> {
  const terminators = silencedTerminators(log);
  const needleLength = " silenced).\nok".length;
  return [
    // ... Testing against Django installed in (anything, across lines) silenced).\nok
    {
      phrase: "Testing against Django installed in ",
      tail: (text, from) => firstAtOrAfter(terminators, from + needleLength),
    },
    // ... Internal Server Error: /(rest of the line)/\nok
    {
      phrase: "Internal Server Error: /",
      tail: (text, from) => {
        const newline = text.indexOf("\n", from);
        return newline > from && text[newline - 1] === "/" ? okLineAfter(text, newline) : -1;
      },
    },
    // ... System check identified no issues (0 silenced)\nok
    {
      phrase: "System check identified no issues (0 silenced)",
      tail: (text, from) => okLineAfter(text, from),
    },
  ];
}

/** The interrupted-verdict patterns, each run over the whole log as re.finditer does. */
function interruptedVerdicts(log: string, results: TestStatusMap) {
  for (const { phrase, tail } of interruptedPatterns(log)) {
    let resume = 0;
    for (let start = 0; start <= log.length;) {
      const lineEnd = log.indexOf("\n", start) < 0 ? log.length : log.indexOf("\n", start);
      const match = start >= resume ? matchInterrupted(log, start, lineEnd, phrase, tail) : undefined;
      if (match) {
        results.set(match.name, "PASSED");
        resume = match.end;
      }
      if (lineEnd >= log.length) break;
      start = lineEnd + 1;
    }
  }
}

/** parse_log_django: Django's runner at verbosity 2, as SWE-bench reads it. */
export function parseLogDjango(log: string): TestStatusMap {
  const results: TestStatusMap = new Map();
  lineVerdicts(log, results);
  interruptedVerdicts(log, results);
  return results;
}
