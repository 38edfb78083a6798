import { DockerUnavailableError, EngineStoppedError } from "../docker/docker-errors";
import { requeueRow } from "../worker-runtime/requeue-row";
import type { Lease, LeasedTable } from "../worker-runtime/row-lease";
import type { WorkerContext } from "../worker-runtime/worker-context";

// When the Docker engine stops under a running build or validation, nothing it printed is
// judged: the job holds its row (its lease keeps beating) until the engine answers again,
// reaps the container the engine left behind, and hands the row back to the queue to run
// again. After a few such losses in a row the caller records an INFRA failure instead.

const ENGINE_POLL_MS = 1_000;
const ENGINE_WAIT_LIMIT_MS = 30 * 60_000;
/** claims of one row after which an engine that keeps stopping is reported instead of retried */
export const ENGINE_LOSS_ATTEMPT_LIMIT = 5;

/**
 * The engine went away under the job — or is still away when a job it interrupted comes
 * back (a first attempt that finds no engine fails at once, as the dashboard's banner says).
 */
/** A Docker-side failure; only then is the row's attempt count worth reading (the database may be the part that is away). */
export const isEngineError = (error: unknown): boolean => error instanceof EngineStoppedError || error instanceof DockerUnavailableError;

export function isEngineStopped(error: unknown, attempts: number): error is DockerUnavailableError {
  return error instanceof EngineStoppedError || (error instanceof DockerUnavailableError && attempts > 1);
}

async function waitForEngine(ctx: WorkerContext, lease: Lease): Promise<boolean> {
  const deadline = Date.now() + ENGINE_WAIT_LIMIT_MS;
  while (lease.state() === "held" && Date.now() < deadline) {
    // twice in a row: an engine that is shutting down still answers for a moment
    if ((await ctx.docker.status()).reachable) {
      await new Promise((resolve) => setTimeout(resolve, ENGINE_POLL_MS * 2));
      if ((await ctx.docker.status()).reachable) return true;
    }
    await new Promise((resolve) => setTimeout(resolve, ENGINE_POLL_MS));
  }
  return false;
}

/**
 * Waits for the engine, reaps the stopped container and requeues the row. Returns false
 * (the caller fails the row as INFRA_ERROR with the error's message) when the row has been
 * tried too often or the engine stayed away past the wait limit.
 */
export async function retryAfterEngineStopped(
  ctx: WorkerContext,
  lease: Lease,
  table: LeasedTable,
  id: string,
  error: DockerUnavailableError,
  attempts: number,
): Promise<boolean> {
  if (attempts >= ENGINE_LOSS_ATTEMPT_LIMIT) return false;
  if (!(await waitForEngine(ctx, lease))) return false;
  if (error instanceof EngineStoppedError && error.containerId) await ctx.docker.removeContainer(error.containerId).catch(() => {});
  await requeueRow(ctx.db, table, id, `${error.message}. It was handed back to the queue when the engine answered again.`, { ownedBy: ctx.workerId });
  return true;
}
