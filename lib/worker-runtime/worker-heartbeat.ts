import type { PrismaClient } from "../db/client";
import type { DockerStatus, EngineFacts } from "../docker/docker-engine";
import type { EngineView } from "./claim-flags";
import { WORKER_STALE_MS } from "./list-workers";

export type WorkerIdentity = {
  id: string;
  hostname: string;
  pid: number;
  concurrency: number;
  startedAt: Date;
  engineName: string;
};

/**
 * A worker's "I am alive" row, with what its Docker engine says and holds (healthy as
 * engineHealth decides it; the info line is the latest check's own answer); the jobs page
 * lists these and the pool's workers read each other's to decide who claims what. Tells
 * whether a drain was asked for from the Jobs page.
 */
export async function recordWorkerHeartbeat(
  db: PrismaClient,
  worker: WorkerIdentity,
  docker: DockerStatus,
  engineHealthy: boolean,
  runningJobs: number,
  facts: EngineFacts | null = null,
): Promise<{ drainRequested: boolean }> {
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
    dockerOk: engineHealthy,
    dockerInfo: docker.reachable ? `Docker ${docker.version} at ${docker.endpoint}` : docker.error,
    runningJobs,
    startedAt: worker.startedAt,
    lastSeenAt: new Date(),
  };
  const row = await db.workerHeartbeat.upsert({
    where: { id: worker.id },
    create: { id: worker.id, ...data },
    update: data,
    select: { drainRequested: true },
  });
  return { drainRequested: row.drainRequested };
}

/** The live engines of the pool as the claim sees them. */
export async function poolView(db: PrismaClient): Promise<EngineView[]> {
  const rows = await db.workerHeartbeat.findMany({
    where: { lastSeenAt: { gte: new Date(Date.now() - WORKER_STALE_MS) } },
  });
  return rows.map((row) => ({
    workerId: row.id,
    healthy: row.dockerOk,
    draining: row.drainRequested,
    hasRoom: row.runningJobs < row.concurrency,
    imageHashes: row.heldImageHashes,
  }));
}

export async function removeWorkerHeartbeat(db: PrismaClient, workerId: string) {
  await db.workerHeartbeat.deleteMany({ where: { id: workerId } });
}

/** Removes the rows of workers silent for longer than olderThanMs (listed as gone until then). */
export async function forgetSilentWorkers(db: PrismaClient, olderThanMs: number): Promise<number> {
  const { count } = await db.workerHeartbeat.deleteMany({
    where: { lastSeenAt: { lt: new Date(Date.now() - olderThanMs) } },
  });
  return count;
}
