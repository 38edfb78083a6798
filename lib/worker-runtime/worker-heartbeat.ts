import type { PrismaClient } from "../db/client";
import type { DockerStatus, EngineFacts } from "../docker/docker-engine";
import type { EngineView } from "./claim-flags";

export type WorkerIdentity = { id: string; hostname: string; pid: number; concurrency: number; startedAt: Date; engineName: string };

/**
 * A worker's "I am alive" row, with what its Docker engine says and holds; the jobs page
 * lists these and the pool's workers read each other's to decide who claims what. Tells
 * whether a drain was asked for from the Jobs page.
 */
export async function recordWorkerHeartbeat(db: PrismaClient, worker: WorkerIdentity, docker: DockerStatus, runningJobs: number, facts: EngineFacts | null = null): Promise<{ drainRequested: boolean }> {
  const engine = {
    engineName: worker.engineName,
    dockerVersion: docker.reachable ? docker.version : null,
    ...(facts && {
      freeDiskBytes: facts.freeDiskBytes === null ? null : BigInt(facts.freeDiskBytes),
      memoryBytes: BigInt(facts.memoryBytes),
      imagesHeld: facts.imagesHeld,
      heldImageHashes: facts.environmentImageHashes,
    }),
  };
  const data = {
    ...engine,
    hostname: worker.hostname,
    pid: worker.pid,
    concurrency: worker.concurrency,
    dockerOk: docker.reachable,
    dockerInfo: docker.reachable ? `Docker ${docker.version} at ${docker.endpoint}` : docker.error,
    runningJobs,
    startedAt: worker.startedAt,
    lastSeenAt: new Date(),
  };
  const row = await db.workerHeartbeat.upsert({ where: { id: worker.id }, create: { id: worker.id, ...data }, update: data, select: { drainRequested: true } });
  return { drainRequested: row.drainRequested };
}

/** The live engines of the pool as the claim sees them. */
export async function poolView(db: PrismaClient): Promise<EngineView[]> {
  const rows = await db.workerHeartbeat.findMany({ where: { lastSeenAt: { gte: new Date(Date.now() - WORKER_STALE_MS) } } });
  return rows.map((row) => ({
    workerId: row.id,
    healthy: row.dockerOk,
    draining: row.drainRequested,
    hasRoom: row.runningJobs < row.concurrency,
    imageHashes: row.heldImageHashes,
  }));
}

/** Asks a worker to finish what it runs and take nothing new (or to resume). False when no such worker is listed. */
export async function setWorkerDrain(db: PrismaClient, workerId: string, drain: boolean): Promise<boolean> {
  const { count } = await db.workerHeartbeat.updateMany({ where: { id: workerId }, data: { drainRequested: drain } });
  return count === 1;
}

export async function removeWorkerHeartbeat(db: PrismaClient, workerId: string) {
  await db.workerHeartbeat.deleteMany({ where: { id: workerId } });
}

/** Removes the rows of workers silent for longer than olderThanMs (listed as gone until then). */
export async function forgetSilentWorkers(db: PrismaClient, olderThanMs: number): Promise<number> {
  const { count } = await db.workerHeartbeat.deleteMany({ where: { lastSeenAt: { lt: new Date(Date.now() - olderThanMs) } } });
  return count;
}

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
export function workerState(alive: boolean, dockerOk: boolean, drainRequested: boolean, runningJobs: number): WorkerState {
  if (!alive) return "gone";
  if (drainRequested) return runningJobs ? "draining" : "drained";
  if (!dockerOk) return "engine down";
  return runningJobs ? "working" : "idle";
}
