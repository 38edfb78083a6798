import type { ImageSource } from "../db/client";

// The eval script of an IMAGE or SPEC environment is not written by people: it is derived from
// each task, the same way for both. The container runner (lib/runs/validation-container.ts)
// has already applied the test patch and the fix or candidate (a candidate never touches the
// tests: lib/validation/guard-candidate-patch.ts); this script runs the task's tests with the
// repository's test command in /testbed, the harness layout, between SWE-bench's output markers,
// and prints OPENSWE_EXIT_CODE — so both controls, reruns, legitimacy flags and per-test
// evidence work as they do for a recipe.

export const HARNESS_WORKDIR = "/testbed";

/** SWE-bench's NON_TEST_EXTS: files of a test patch that are not test files to run. */
const NON_TEST_EXTENSIONS = [".json", ".png", "csv", ".txt", ".md", ".jpg", ".jpeg", ".pkl", ".yml", ".yaml", ".toml"];

/** The test files a test patch touches, as SWE-bench's harness passes them to the test command. */
export function testFilesOf(testPatch: string): string[] {
  const files = [...testPatch.matchAll(/^diff --git a\/\S+ b\/(\S+)$/gm)].map((match) => match[1]);
  return [...new Set(files)].filter((file) => !NON_TEST_EXTENSIONS.some((extension) => file.endsWith(extension)));
}

export type TestCommand = { command: string; directives: string[]; from: string };

/** A function that knows a repository's test command (the harness specs); null when it does not. */
export type SpecTestCommand = (task: DerivableTask) => { command: string; directives: string[]; from: string } | null;

export type DerivableTask = { instanceId: string; testPatch: string; metadata: unknown };

const installConfigOf = (metadata: unknown) => (metadata as { install_config?: unknown } | null)?.install_config;

/** SWE-rebench rows carry their test command in install_config.test_cmd (a string or a list of them). */
function rebenchTestCommand(metadata: unknown): string | null {
  const config = installConfigOf(metadata);
  const parsed = typeof config === "string" ? safeJson(config) : config;
  const command = (parsed as { test_cmd?: unknown } | null)?.test_cmd;
  if (typeof command === "string" && command.trim()) return command.trim();
  if (Array.isArray(command) && command.every((part) => typeof part === "string") && command.length)
    return command.join(" && ");
  return null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The repository's test command: the harness spec's, else the row's own (SWE-rebench), else pytest on the test patch's files. */
export function testCommandOf(task: DerivableTask, spec?: SpecTestCommand): TestCommand {
  const fromSpec = spec?.(task);
  if (fromSpec) return fromSpec;
  const directives = testFilesOf(task.testPatch);
  const rebench = rebenchTestCommand(task.metadata);
  if (rebench) return { command: rebench, directives, from: "the row's install_config.test_cmd" };
  return {
    command: "pytest -rA",
    directives,
    from: "the default for Python repositories (pytest on the test patch's files)",
  };
}

const shellQuote = (word: string) => (/^[\w./:@=+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** The eval script for one task of an IMAGE or SPEC environment. */
export function derivedEvalScript(task: DerivableTask, spec?: SpecTestCommand): string {
  const test = testCommandOf(task, spec);
  return [
    "#!/bin/bash",
    `# Derived by SWE Curator for task ${task.instanceId.replace(/\n/g, " ")}; the test command is ${test.from}.`,
    "# The worker has already applied the test patch and the fix (or candidate) in the work tree.",
    "set -uo pipefail",
    `cd ${HARNESS_WORKDIR}`,
    // SWE-bench's images keep the repository's interpreter in a conda environment named testbed
    "if [ -f /opt/miniconda3/bin/activate ]; then source /opt/miniconda3/bin/activate && conda activate testbed; fi",
    'echo ">>>>> Start Test Output"',
    [test.command, ...test.directives.map(shellQuote)].join(" "),
    "rc=$?",
    'echo ">>>>> End Test Output"',
    'echo "OPENSWE_EXIT_CODE=$rc"',
    "",
  ].join("\n");
}

/** The eval script a run uses: derived from the task for IMAGE and SPEC environments, the revision's own for a recipe. */
export function evalScriptFor(
  revision: { evalScript: string; environment: { imageSource: ImageSource } },
  task: DerivableTask,
  spec?: SpecTestCommand,
): string {
  const { imageSource } = revision.environment;
  if (imageSource !== "IMAGE" && imageSource !== "SPEC") return revision.evalScript;
  return derivedEvalScript(task, spec);
}
