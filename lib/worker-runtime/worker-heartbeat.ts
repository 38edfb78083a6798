import type { PrismaClient } from "../db/client";
import type { DockerStatus } from "../docker/docker-engine";

export type WorkerIdentity = { id: string; hostname: string; pid: number; concurrency: number; startedAt: Date };

/** A worker's "I am alive" row, with what its Docker host says; the jobs page lists these. */
export async function recordWorkerHeartbeat(db: PrismaClient, worker: WorkerIdentity, docker: DockerStatus, runningJobs: number) {
  const data = {
    hostname: worker.hostname,
    pid: worker.pid,
    concurrency: worker.concurrency,
    dockerOk: docker.reachable,
    dockerInfo: docker.reachable ? `Docker ${docker.version} at ${docker.endpoint}` : docker.error,
    runningJobs,
    startedAt: worker.startedAt,
    lastSeenAt: new Date(),
  };
  await db.workerHeartbeat.upsert({ where: { id: worker.id }, create: { id: worker.id, ...data }, update: data });
}

export async function removeWorkerHeartbeat(db: PrismaClient, workerId: string) {
  await db.workerHeartbeat.deleteMany({ where: { id: workerId } });
}

/** Removes the rows of workers silent for longer than olderThanMs (listed as gone until then). */
export async function forgetSilentWorkers(db: PrismaClient, olderThanMs: number): Promise<number> {
  const { count } = await db.workerHeartbeat.deleteMany({ where: { lastSeenAt: { lt: new Date(Date.now() - olderThanMs) } } });
  return count;
}
