import type { FileTree } from "../docker/docker-engine";
import { PATCH_FAILED_EXIT_CODE, runnerLine } from "../validation/runner-markers";

export type NamedPatch = { name: "test" | "fix" | "candidate"; content: string };

// Runs inside the container: patches are applied there (git apply, falling back to
// patch with fuzz like SWE-bench's harness), never on the host, then the eval script runs.
const RUNNER = `#!/bin/bash
cd "\${SWE_CURATOR_WORKDIR:-$PWD}" || exit 90
for patch in /swe-curator/patches/*.patch; do
  [ -s "$patch" ] || continue
  name=$(basename "$patch" .patch); name=\${name#*-}
  echo "${runnerLine.applying("$name")}"
  if ! git apply -v "$patch" 2>&1; then
    if ! patch --batch --fuzz=5 -p1 -i "$patch" 2>&1; then
      echo "${runnerLine.patchFailed("$name")}"
      exit ${PATCH_FAILED_EXIT_CODE}
    fi
  fi
done
echo "${runnerLine.running}"
bash /swe-curator/eval.sh
code=$?
echo "${runnerLine.finished("$code")}"
exit $code
`;

export const VALIDATION_COMMAND = ["/bin/bash", "/swe-curator/run.sh"];

/** The files put into a validation container before it starts (putArchive). */
export function validationContainerFiles(patches: NamedPatch[], evalScript: string): FileTree {
  const files: FileTree = {
    "/swe-curator/run.sh": { content: RUNNER, mode: 0o755 },
    "/swe-curator/eval.sh": { content: evalScript, mode: 0o755 },
  };
  patches.forEach((patch, index) => {
    files[`/swe-curator/patches/${index + 1}-${patch.name}.patch`] = patch.content.endsWith("\n")
      ? patch.content
      : `${patch.content}\n`;
  });
  return files;
}

export function patchesFor(
  kind: "NEGATIVE_CONTROL" | "POSITIVE_CONTROL" | "CANDIDATE",
  task: { testPatch: string; fixPatch: string },
  candidatePatch?: string,
): NamedPatch[] {
  const test: NamedPatch = { name: "test", content: task.testPatch };
  if (kind === "NEGATIVE_CONTROL") return [test];
  if (kind === "POSITIVE_CONTROL") return [test, { name: "fix", content: task.fixPatch }];
  return [test, { name: "candidate", content: candidatePatch ?? "" }];
}
