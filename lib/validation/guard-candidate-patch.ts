import { codeLines } from "./detect-forced-exit-code";
import type { RunFlag } from "./legitimacy-flags";
import { normalizeDiffPath, pathsTouchedBy, splitDiffSections, type DiffSection } from "./diff-sections";

// A candidate patch never changes the tests that judge it. SWE-bench applies the model
// patch and then checks the test patch's files out again; we go one step further and
// leave out, before anything reaches the container, every part of the candidate that
// touches a file able to change how the tests run or report: the test patch's files,
// test files and directories, test-runner configuration, interpreter start-up hooks,
// symbolic links, and files the eval script names. What is left is the code change.

export type RunnerHook = { path: string; line: number; text: string };

export type GuardedCandidate = {
  /** the candidate without the sections that touch protected paths */
  patch: string;
  /** the paths of the sections left out, sorted */
  protectedPaths: string[];
  /** added source lines that reach into the test runner (these cannot be left out) */
  runnerHooks: RunnerHook[];
};

const TEST_DIRECTORIES = new Set(["test", "tests", "testing", "__tests__"]);
const TEST_FILE = /^(test_.*|.*_tests?|tests?|conftest)\.py$/;
// every file pytest and tox read their settings from (pytest ≥ 9 also reads pytest.toml)
const RUNNER_CONFIG = new Set([
  "pytest.ini",
  ".pytest.ini",
  "pytest.toml",
  ".pytest.toml",
  "tox.ini",
  "setup.cfg",
  "pyproject.toml",
  "noxfile.py",
]);
// Python runs these on start-up, before any test
const STARTUP_HOOK = /^(sitecustomize|usercustomize)\.py$|\.pth$/;
const SITE_DIRECTORIES = new Set(["site-packages", "dist-packages"]);
// `python -m pytest` puts the working directory first on sys.path: a top-level module of
// one of these names would replace the runner itself
const RUNNER_MODULES = new Set([
  "pytest",
  "_pytest",
  "py",
  "pluggy",
  "iniconfig",
  "unittest",
  "nose",
  "nose2",
  "xdist",
]);

/** Why a path is protected, or null when a candidate may change it. */
export function protectedBecause(
  path: string,
  fixed: { testPatchPaths: Set<string>; evalScriptPaths: Set<string> },
): string | null {
  if (path.startsWith("/")) return "outside the repository";
  if (fixed.testPatchPaths.has(path)) return "changed by the test patch";
  if (fixed.evalScriptPaths.has(path)) return "named by the eval script";
  const segments = path.split("/");
  const base = segments[segments.length - 1];
  if (segments.slice(0, -1).some((segment) => TEST_DIRECTORIES.has(segment.toLowerCase())))
    return "in a test directory";
  if (TEST_FILE.test(base)) return "a test file";
  if (RUNNER_CONFIG.has(base)) return "test-runner configuration";
  if (STARTUP_HOOK.test(base) || segments.some((segment) => SITE_DIRECTORIES.has(segment)))
    return "an interpreter start-up hook";
  if (RUNNER_MODULES.has(segments[0].replace(/\.py$/, ""))) return "shadows the test runner";
  // git runs hooks and fsmonitor commands from .git/ when the eval script checks files out
  if (segments.includes(".git")) return "git metadata";
  return null;
}

/**
 * A new module at the top of the repository (`inspect.py`, `json/__init__.py`) comes first
 * on `python -m pytest`'s path and would replace a standard-library module the runner uses.
 */
const newTopLevelModule = (section: DiffSection) =>
  section.created && section.paths.some((path) => /^[^/]+\.py$|^[^/]+\/__init__\.py$/.test(path));

/**
 * Files the eval script names (`tests/runtests.py`, `bin/test`, `-c ci.ini`,
 * `tests/x.py::test_y`): relative tokens with a file extension or a slash, matched
 * exactly, so naming a source folder (`--cov=src/calc`) protects nothing in it. `make`
 * reads the Makefile.
 */
export function evalScriptPaths(evalScript: string): Set<string> {
  const paths = new Set<string>();
  for (const { text } of codeLines(evalScript)) {
    if (/(^|[;&|]\s*)make\b/.test(text)) ["Makefile", "makefile", "GNUmakefile"].forEach((name) => paths.add(name));
    for (const word of text.split(/[\s;|&()<>=,"'`]+/)) {
      const token = word.replace(/(?<!:)::.*$/, "").replace(/^\.\//, "");
      if (!token || token.startsWith("-") || token.startsWith("/") || token.startsWith("$")) continue;
      const path = token.includes("/") || /\.[A-Za-z]\w*$/.test(token) ? normalizeDiffPath(token, false) : null;
      if (path) paths.add(path);
    }
  }
  return paths;
}

// Constructs that make a test report something other than what happened: pytest's
// internals and report hooks, plugin registration, unittest result monkeypatching,
// and exiting the interpreter from under the runner.
const HOOK_PATTERNS = [
  /\b_pytest\b/,
  /\bpytest_(runtest|report|collection|collect|make_collect_report|sessionfinish|terminal_summary|pyfunc_call|configure|plugin_registered)\w*/,
  /\bTestReport\b/,
  /\bpytest_plugins\b|\bpytest11\b/,
  /\bunittest\b.*\b(TestCase|TestResult|TextTestResult|TextTestRunner)\b\.\w+\s*=[^=]/,
  /\bsys\.modules\b.*\b(pytest|unittest)\b/,
  /\bos\._exit\s*\(/,
];

/** The test runner's own source (pytest's repository keeps it under src/) may mention its internals. */
const isRunnerSource = (path: string) => /^src\/_?pytest\//.test(path);

function runnerHooksIn(section: DiffSection): RunnerHook[] {
  const path = section.paths[section.paths.length - 1] ?? "";
  if (isRunnerSource(path) || !/\.py$/.test(path)) return [];
  return section.added
    .filter(({ text }) => HOOK_PATTERNS.some((pattern) => pattern.test(text)))
    .map(({ line, text }) => ({ path, line, text: text.trim() }));
}

export function guardCandidatePatch(
  candidate: string,
  task: { testPatch: string; evalScript: string },
): GuardedCandidate {
  const fixed = {
    testPatchPaths: new Set(pathsTouchedBy(task.testPatch)),
    evalScriptPaths: evalScriptPaths(task.evalScript),
  };
  const kept: string[] = [];
  const protectedPaths = new Set<string>();
  const runnerHooks: RunnerHook[] = [];
  for (const section of splitDiffSections(candidate)) {
    const touched = section.paths.filter((path) => protectedBecause(path, fixed));
    if (touched.length || section.symlink || newTopLevelModule(section)) {
      (touched.length ? touched : section.paths).forEach((path) => protectedPaths.add(path));
      continue;
    }
    kept.push(section.text);
    runnerHooks.push(...runnerHooksIn(section));
  }
  return { patch: kept.join(""), protectedPaths: [...protectedPaths].sort(), runnerHooks };
}

export type CandidateTampering = {
  flags: RunFlag[];
  touchedTestPaths: string[];
  reason: string | null;
  trustworthy: boolean;
};

const listPaths = (paths: string[]) =>
  paths.length > 4 ? `${paths.slice(0, 4).join(", ")} and ${paths.length - 4} more` : paths.join(", ");

/** What a curator is told about a guarded candidate: flags, the paths, a sentence, and whether its result can be believed. */
export function describeTampering(guard: Pick<GuardedCandidate, "protectedPaths" | "runnerHooks">): CandidateTampering {
  const flags: RunFlag[] = [];
  const sentences: string[] = [];
  if (guard.protectedPaths.length) {
    flags.push("CANDIDATE_CHANGES_TESTS");
    sentences.push(
      `The candidate patch changes test files or test settings (${listPaths(guard.protectedPaths)}); those parts were left out and the tests ran as the task defines them.`,
    );
  }
  const hookSites = [...new Set(guard.runnerHooks.map((hook) => `${hook.path}:${hook.line}`))];
  if (hookSites.length) {
    flags.push("CANDIDATE_HOOKS_TEST_RUNNER");
    sentences.push(
      `It adds code that reaches into the test runner (${listPaths(hookSites)}), so it is not counted as resolved.`,
    );
  }
  return {
    flags,
    touchedTestPaths: [...guard.protectedPaths, ...hookSites],
    reason: sentences.join(" ") || null,
    trustworthy: hookSites.length === 0,
  };
}
