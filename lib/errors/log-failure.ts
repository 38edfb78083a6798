import { errorMessageOf } from "./error-message";

/**
 * A `.catch` for work whose failure must not fail its caller — a heartbeat, a clean-up, a
 * best-effort write — but must not vanish either: it logs what was being done and why it
 * failed. `expected` names failures that are part of normal operation (a container that is
 * already gone, a row this worker no longer owns); those are not logged.
 */
// Prisma's messages quote the calling code over many lines and end with the cause: keep the cause
const lastLineOf = (message: string) =>
  message
    .trim()
    .split("\n")
    .filter((line) => line.trim())
    .pop() ?? message;

export function logFailure(
  what: string,
  options: { expected?: (error: unknown) => boolean; log?: (line: string) => void } = {},
) {
  return (error: unknown): void => {
    if (options.expected?.(error)) return;
    (options.log ?? console.warn)(`${what} failed: ${lastLineOf(errorMessageOf(error))}`);
  };
}
