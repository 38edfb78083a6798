import type { PrismaClient } from "../db/client";

// The workers as the jobs page and the CLI see them: the heartbeat rows each worker writes
// (lib/worker-runtime/worker-heartbeat.ts), each marked alive or gone.

/** A worker whose heartbeat is older than this is shown as gone. */
export const WORKER_STALE_MS = 30_000;

export async function listWorkers(db: PrismaClient) {
  const now = Date.now();
  const workers = await db.workerHeartbeat.findMany({ orderBy: { startedAt: "asc" } });
  return workers.map((worker) => {
    const alive = now - worker.lastSeenAt.getTime() < WORKER_STALE_MS;
    return {
      ...worker,
      // bytes as plain numbers: JSON has no bigint, and no engine holds 2^53 bytes
      freeDiskBytes: worker.freeDiskBytes === null ? null : Number(worker.freeDiskBytes),
      memoryBytes: worker.memoryBytes === null ? null : Number(worker.memoryBytes),
      alive,
      state: workerState(alive, worker.dockerOk, worker.drainRequested, worker.runningJobs),
    };
  });
}

export type WorkerState = "gone" | "engine down" | "drained" | "draining" | "working" | "idle";

/** One word for the Jobs page: can this worker take work now, and if not why. */
export function workerState(
  alive: boolean,
  dockerOk: boolean,
  drainRequested: boolean,
  runningJobs: number,
): WorkerState {
  if (!alive) return "gone";
  if (drainRequested) return runningJobs ? "draining" : "drained";
  if (!dockerOk) return "engine down";
  return runningJobs ? "working" : "idle";
}
