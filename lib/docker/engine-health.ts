/**
 * How many checks in a row an engine must fail before its worker counts it as down. One
 * slow answer is not an outage: on a loaded host `docker version` can miss its 3 s timeout
 * while the engine runs containers fine, and a worker that then believed every engine down
 * would claim runs only to hand them back with a growing delay.
 */
export const FAILED_CHECKS_BEFORE_DOWN = 3;

/**
 * An engine's health as the pool sees it, from its worker's checks: down after
 * FAILED_CHECKS_BEFORE_DOWN failures in a row, up again at the first answer. The first
 * check decides at once, so a worker that starts beside a dead engine claims no run.
 */
export function engineHealth(failedChecksBeforeDown = FAILED_CHECKS_BEFORE_DOWN) {
  let healthy: boolean | null = null;
  let failuresInARow = 0;
  return {
    /** Records one check; returns whether the engine counts as healthy now. */
    record(reachable: boolean): boolean {
      failuresInARow = reachable ? 0 : failuresInARow + 1;
      healthy = reachable || (healthy !== null && healthy && failuresInARow < failedChecksBeforeDown);
      return healthy;
    },
  };
}
