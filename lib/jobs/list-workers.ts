import type { PrismaClient } from "../db/client";

// The workers as the jobs page and the CLI see them: the heartbeat rows each worker writes
// (lib/worker-runtime/worker-heartbeat.ts), each marked alive or gone.

/** A worker whose heartbeat is older than this is shown as gone. */
export const WORKER_STALE_MS = 30_000;

export async function listWorkers(db: PrismaClient) {
  const now = Date.now();
  const workers = await db.workerHeartbeat.findMany({ orderBy: { startedAt: "asc" } });
  return workers.map((worker) => ({ ...worker, alive: now - worker.lastSeenAt.getTime() < WORKER_STALE_MS }));
}
