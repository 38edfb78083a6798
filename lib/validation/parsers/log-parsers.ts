import type { TestStatusMap } from "../test-status";
import { parseGenericLog } from "./parse-generic-log";
import { parseUnittestLog } from "./parse-unittest-log";
import { parseLogDjango } from "./swe-bench-django";
import {
  parseLogMatplotlib,
  parseLogPytest,
  parseLogPytestOptions,
  parseLogPytestV2,
  parseLogSeaborn,
} from "./swe-bench-pytest";
import { parseLogSympy } from "./swe-bench-sympy";

export type LogParser = (log: string) => TestStatusMap;

/**
 * Bumped whenever a parser reads a log differently than before: each run records
 * `parserVersionOf(name)`, so the evidence matrix can tell a status flip the parser caused.
 */
export const LOG_PARSERS_VERSION = 1;

export const parserVersionOf = (parser: string) => `${parser}@${LOG_PARSERS_VERSION}`;

/**
 * Parsers by name; an environment may name one (metadata.logParser), a task's repository
 * picks one through REPO_LOG_PARSERS, otherwise we detect. The SWE-bench names give exactly
 * SWE-bench's statuses; `pytest-lenient`, `unittest` and `generic` are ours.
 */
const registry = new Map<string, LogParser>([
  ["pytest", (log) => parseLogPytest(log)],
  ["pytest_options", (log) => parseLogPytestOptions(log)],
  ["pytest_v2", parseLogPytestV2],
  ["matplotlib", (log) => parseLogMatplotlib(log)],
  ["seaborn", parseLogSeaborn],
  ["django", parseLogDjango],
  ["sympy", parseLogSympy],
  // ours: pytest as SWE-bench reads it, plus -v progress lines, spaced ids and colour codes
  ["pytest-lenient", (log) => parseLogPytest(log, { verboseLines: true, spacedIds: true, stripAnsi: true })],
  ["unittest", parseUnittestLog],
  ["generic", parseGenericLog],
]);

/**
 * SWE-bench's MAP_REPO_TO_PARSER_PY (swebench/harness/log_parsers/python.py): which parser
 * grades which repository. Every other repository is detected from its log.
 */
export const REPO_LOG_PARSERS: Readonly<Record<string, string>> = {
  "astropy/astropy": "pytest_v2",
  "django/django": "django",
  "marshmallow-code/marshmallow": "pytest",
  "matplotlib/matplotlib": "matplotlib",
  "mwaskom/seaborn": "seaborn",
  "pallets/flask": "pytest",
  "psf/requests": "pytest_options",
  "pvlib/pvlib-python": "pytest",
  "pydata/xarray": "pytest",
  "pydicom/pydicom": "pytest_options",
  "pylint-dev/astroid": "pytest",
  "pylint-dev/pylint": "pytest_options",
  "pytest-dev/pytest": "pytest",
  "pyvista/pyvista": "pytest",
  "scikit-learn/scikit-learn": "pytest_v2",
  "sqlfluff/sqlfluff": "pytest",
  "sphinx-doc/sphinx": "pytest_v2",
  "sympy/sympy": "sympy",
};

/** The parser SWE-bench uses for a repository (`owner/name`, any case), if it has one. */
export function logParserForRepo(repo: string | null | undefined): string | undefined {
  if (!repo) return undefined;
  const key = Object.keys(REPO_LOG_PARSERS).find((name) => name.toLowerCase() === repo.toLowerCase());
  return key ? REPO_LOG_PARSERS[key] : undefined;
}

/** Adds a parser for another runner (jest, go test, …) without touching the others. */
export function registerLogParser(name: string, parser: LogParser) {
  registry.set(name, parser);
}

export function logParserNames(): string[] {
  return [...registry.keys()];
}

/** `==== 2 failed, 3 passed in 0.12s ====`, checked piece by piece: one backtracking regex here was quadratic. */
const isPytestBanner = (line: string) =>
  line.startsWith("=") && /^=+ /.test(line) && /\b(?:passed|failed|error)\b/.test(line) && / in [\d.]+s/.test(line);

/** Guesses the runner from the signatures each one prints (plain substring and anchored-line checks). */
export function detectLogParser(log: string): string | undefined {
  if (log.includes("test process starts") && log.includes("tests finished:")) return "sympy";
  if (
    log.includes("short test summary info") ||
    /^collected \d+ items?/m.test(log) ||
    log.split("\n").some(isPytestBanner)
  )
    return "pytest";
  if (/^Ran \d+ tests? in /m.test(log)) return "unittest";
  return undefined;
}

/**
 * Per-test results from a log. With a named or detected parser we trust it; otherwise
 * every parser tries and the one that recognises the most tests wins.
 */
export function parseTestLog(log: string, parserName?: string | null): { parser: string; results: TestStatusMap } {
  const named = parserName ? registry.get(parserName) : undefined;
  if (parserName && !named)
    throw new Error(`Unknown log parser "${parserName}"; known: ${logParserNames().join(", ")}`);
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
