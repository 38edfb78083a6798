import type { TestStatusMap } from "../test-status";
import { parseGenericLog } from "./parse-generic-log";
import { parsePytestLog } from "./parse-pytest-log";
import { parseSympyLog } from "./parse-sympy-log";
import { parseUnittestLog } from "./parse-unittest-log";

export type LogParser = (log: string) => TestStatusMap;

/** Parsers by name; an environment may name one (metadata.logParser), otherwise we detect. */
const registry = new Map<string, LogParser>([
  ["pytest", parsePytestLog],
  ["unittest", parseUnittestLog],
  ["django", parseUnittestLog],
  ["sympy", parseSympyLog],
  ["generic", parseGenericLog],
]);

/** Adds a parser for another runner (jest, go test, …) without touching the others. */
export function registerLogParser(name: string, parser: LogParser) {
  registry.set(name, parser);
}

export function logParserNames(): string[] {
  return [...registry.keys()];
}

/** Guesses the runner from the signatures each one prints. */
export function detectLogParser(log: string): string | undefined {
  if (log.includes("test process starts") && /tests finished:/.test(log)) return "sympy";
  if (/short test summary info|^collected \d+ items?|^=+ .*\b(passed|failed|error)\b.* in [\d.]+s/m.test(log)) return "pytest";
  if (/^Ran \d+ tests? in /m.test(log)) return "unittest";
  return undefined;
}

/**
 * Per-test results from a log. With a named or detected parser we trust it; otherwise
 * every parser tries and the one that recognises the most tests wins.
 */
export function parseTestLog(log: string, parserName?: string | null): { parser: string; results: TestStatusMap } {
  const named = parserName ? registry.get(parserName) : undefined;
  if (parserName && !named) throw new Error(`Unknown log parser "${parserName}"; known: ${logParserNames().join(", ")}`);
  const chosen = parserName ?? detectLogParser(log);
  if (chosen) {
    const results = registry.get(chosen)!(log);
    if (results.size > 0 || parserName) return { parser: chosen, results };
  }
  let best = { parser: "generic", results: new Map() as TestStatusMap };
  for (const [name, parser] of registry) {
    const results = parser(log);
    if (results.size > best.results.size) best = { parser: name, results };
  }
  return best;
}
