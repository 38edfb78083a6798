// Lines our container runner prints around the eval script (see lib/runs/validation-container.ts);
// the worker reads them to follow the phase and to tell a patch failure from a test failure.
export const RUNNER_PREFIX = ">>>>> swe-curator:";
export const runnerLine = {
  applying: (name: string) => `${RUNNER_PREFIX} applying ${name} patch`,
  patchFailed: (name: string) => `${RUNNER_PREFIX} ${name} patch failed to apply`,
  running: `${RUNNER_PREFIX} running eval script`,
  finished: (code: string) => `${RUNNER_PREFIX} eval script exited with ${code}`,
};
export const PATCH_FAILED_EXIT_CODE = 86;

export function failedPatchName(log: string): string | null {
  const match = new RegExp(`^${escape(RUNNER_PREFIX)} (\\S+) patch failed to apply`, "m").exec(log);
  return match ? match[1] : null;
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
