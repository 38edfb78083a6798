// The three scripts of a harness TestSpec for a Python repository (test_spec/python.py at the pinned commit):
// the environment's setup, the repository's install, and the evaluation.
import { END_TEST_OUTPUT, MAP_REPO_TO_INSTALL_PY, REPO_BASE_COMMIT_BRANCH, START_TEST_OUTPUT } from "./harness-data";
import { getModifiedFiles } from "./modified-files";
import type { TestableSpec } from "./repo-spec";

export const ENV_NAME = "testbed";
export const REPO_DIRECTORY = `/${ENV_NAME}`;
const ENV_HEREDOC = "EOF_59812759871";
const TEST_PATCH_HEREDOC = "EOF_114329324912";

/** How the environment gets its packages: the pinned yml, the repository's file, or the spec's own list. */
export type EnvironmentSource =
  | { kind: "cached-yml"; yml: string }
  | { kind: "requirements"; requirements: string }
  | { kind: "environment-yml"; yml: string }
  | { kind: "inline" };

export function envScriptList(spec: TestableSpec, source: EnvironmentSource): string[] {
  const activate = "source /opt/miniconda3/bin/activate";
  if (source.kind === "cached-yml") {
    return [
      activate,
      heredoc(ENV_HEREDOC, "/root/environment.yml", source.yml),
      "conda env create -f /root/environment.yml",
      `conda activate ${ENV_NAME}`,
    ];
  }
  const commands = [activate, ...packageCommands(spec, source), `conda activate ${ENV_NAME}`];
  if (spec.pip_packages) commands.push(`python -m pip install ${spec.pip_packages.join(" ")}`);
  return commands;
}

function packageCommands(spec: TestableSpec, source: EnvironmentSource): string[] {
  if (source.kind === "requirements") {
    const path = "$HOME/requirements.txt";
    return [
      `conda create -n ${ENV_NAME} python=${spec.python} -y`,
      heredoc(ENV_HEREDOC, path, source.requirements),
      `conda activate ${ENV_NAME} && python -m pip install -r ${path}`,
      `rm ${path}`,
    ];
  }
  if (source.kind === "environment-yml") {
    const path = "environment.yml";
    const create = spec.no_use_env
      ? [`conda create -c conda-forge -n ${ENV_NAME} python=${spec.python} -y`, `conda env update -f ${path}`]
      : [`conda env create --file ${path}`, `conda activate ${ENV_NAME} && conda install python=${spec.python} -y`];
    return [heredoc(ENV_HEREDOC, path, source.yml), ...create, `rm ${path}`];
  }
  return [`conda create -n ${ENV_NAME} python=${spec.python} ${spec.packages ?? ""} -y`];
}

function heredoc(delimiter: string, path: string, text: string): string {
  return `cat <<'${delimiter}' > ${path}\n${text}\n${delimiter}`;
}

export function repoScriptList(spec: TestableSpec, repo: string, baseCommit: string): string[] {
  const branch = REPO_BASE_COMMIT_BRANCH[repo]?.[baseCommit] ?? "";
  const commands = [
    `git clone -o origin ${branch ? `--branch ${branch}` : ""} --single-branch https://github.com/${repo} ${REPO_DIRECTORY}`,
    `chmod -R 777 ${REPO_DIRECTORY}`,
    `cd ${REPO_DIRECTORY}`,
    `git reset --hard ${baseCommit}`,
    // The harness removes the remote, later tags and unreachable objects so the agent cannot see newer commits.
    "git remote remove origin",
    `TARGET_TIMESTAMP=$(git show -s --format=%ci ${baseCommit})`,
    'git tag -l | while read tag; do TAG_COMMIT=$(git rev-list -n 1 "$tag"); TAG_TIME=$(git show -s --format=%ci "$TAG_COMMIT"); ' +
      'if [[ "$TAG_TIME" > "$TARGET_TIMESTAMP" ]]; then git tag -d "$tag"; fi; done',
    "git reflog expire --expire=now --all",
    "git gc --prune=now --aggressive",
    "AFTER_TIMESTAMP=$(date -d \"$TARGET_TIMESTAMP + 1 second\" '+%Y-%m-%d %H:%M:%S')",
    'COMMIT_COUNT=$(git log --oneline --all --since="$AFTER_TIMESTAMP" | wc -l)',
    '[ "$COMMIT_COUNT" -eq 0 ] || exit 1',
    "source /opt/miniconda3/bin/activate",
    `conda activate ${ENV_NAME}`,
    'echo "Current environment: $CONDA_DEFAULT_ENV"',
  ];
  if (MAP_REPO_TO_INSTALL_PY[repo] !== undefined) commands.push(MAP_REPO_TO_INSTALL_PY[repo]);
  commands.push(...(spec.pre_install ?? []));
  if (spec.install !== undefined) commands.push(spec.install);
  commands.push(...cleanDiffCommands());
  return commands;
}

// Commits the setup's changes so `git diff` afterwards shows only what a patch changed.
function cleanDiffCommands(): string[] {
  return [
    "git config --global user.email setup@swebench.config",
    "git config --global user.name SWE-bench",
    "git commit --allow-empty -am SWE-bench",
  ];
}

export function evalScriptList(
  spec: TestableSpec,
  baseCommit: string,
  testPatch: string,
  testCommand: string,
): string[] {
  const resetTests = `git checkout ${baseCommit} ${getModifiedFiles(testPatch).join(" ")}`;
  const activate = ["source /opt/miniconda3/bin/activate", `conda activate ${ENV_NAME}`];
  return [
    ...activate,
    `cd ${REPO_DIRECTORY}`,
    ...(spec.eval_commands ?? []),
    `git config --global --add safe.directory ${REPO_DIRECTORY}`,
    `cd ${REPO_DIRECTORY}`,
    "git status",
    "git show",
    `git -c core.fileMode=false diff ${baseCommit}`,
    ...activate,
    ...(spec.install !== undefined ? [spec.install] : []),
    resetTests,
    `git apply -v - <<'${TEST_PATCH_HEREDOC}'\n${testPatch}\n${TEST_PATCH_HEREDOC}`,
    `: '${START_TEST_OUTPUT}'`,
    testCommand,
    `: '${END_TEST_OUTPUT}'`,
    resetTests,
  ];
}

export function scriptOf(strict: boolean, commands: readonly string[]): string {
  return [`#!/bin/bash`, strict ? "set -euxo pipefail" : "set -uxo pipefail", ...commands].join("\n") + "\n";
}
