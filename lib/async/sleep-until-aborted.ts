import { setTimeout as delay } from "node:timers/promises";

/**
 * Waits `ms`, or less when `signal` aborts; never throws. Polling loops use it so a shutdown
 * ends their wait at once instead of raising an AbortError each caller would have to swallow.
 */
export const sleepUntilAborted = (ms: number, signal?: AbortSignal): Promise<void> =>
  delay(ms, undefined, { signal }).catch(endOfWaitOnAbort);

/** An abort is how a shutdown ends the wait (not a failure); anything else is thrown on. */
function endOfWaitOnAbort(error: unknown): void {
  if (!(error instanceof Error && error.name === "AbortError")) throw error;
}
