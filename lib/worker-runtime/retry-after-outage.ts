import { databaseUnavailableMessage, isDatabaseUnavailable } from "../db/database-errors";
import { DockerUnavailableError } from "../docker/docker-errors";
import { RegistryUnavailableError } from "../docker/image-transfer";
import { requeueRow } from "./requeue-row";
import type { LeasedTable } from "./row-lease";
import type { WorkerContext } from "./worker-context";

/**
 * What a job cannot help: the database restarting or the Docker engine away. Such a job
 * waits and runs again; it is never FAILED for it. Returns a sentence for the row, or null
 * for an error that is the job's own.
 */
export function outageReason(error: unknown): string | null {
  if (isDatabaseUnavailable(error)) return `The job stopped because ${databaseUnavailableMessage(error)}`;
  if (error instanceof RegistryUnavailableError) return `The job stopped because ${error.message}`;
  if (error instanceof DockerUnavailableError || (error as { retryable?: unknown } | null)?.retryable === true) {
    return `The job stopped because the Docker engine was unavailable: ${(error as Error).message}`;
  }
  return null;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * When a job met an outage, hands its row back to the queue to run again after
 * outageRetryMs, without spending one of its attempts; the reason stays in the row's
 * history. The hand-back itself is retried while the database is still away, up to the
 * lease: past that, lease recovery takes the row back. True when the row was handed back
 * (or the error was an outage and the row is left to recovery), false for other errors.
 */
export async function retryAfterOutage(ctx: WorkerContext, table: LeasedTable, id: string, error: unknown): Promise<boolean> {
  const reason = outageReason(error);
  if (!reason) return false;
  const delayMs = ctx.config.outageRetryMs;
  const message = `${reason}; it runs again in ${Math.round(delayMs / 1000)} s (this does not count as an attempt)`;
  const deadline = Date.now() + ctx.config.leaseMs;
  for (;;) {
    try {
      await requeueRow(ctx.db, table, id, message, { ownedBy: ctx.workerId }, { delayMs, refundAttempt: true });
      return true;
    } catch (writeError) {
      if (!isDatabaseUnavailable(writeError) || Date.now() > deadline || ctx.shutdownSignal.aborted) return true;
      await sleep(Math.min(1_000, ctx.config.heartbeatMs), ctx.shutdownSignal);
    }
  }
}
