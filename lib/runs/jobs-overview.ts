import type { PrismaClient } from "../db/client";
import type { DockerEngine } from "../docker/docker-engine";
import { dockerAvailability } from "../worker-runtime/docker-availability";
import { listWorkers } from "../worker-runtime/list-workers";
import { visibleOnly, type BlindSet } from "../auth/blind";

type QueueJobRow = {
  id: bigint;
  task_identifier: string;
  key: string | null;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  locked_at: Date | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Date;
};

/**
 * Everything the jobs page shows: queued, running and recently failed builds and runs
 * (the rows are the truth), the raw queue, every worker's heartbeat, and whether this
 * web process can reach a Docker engine. Runs of tasks the reader is blind on (`blind`) are left
 * out of the lists and the counts: a failed run's class would tell the verdict.
 */
export async function jobsOverview(db: PrismaClient, docker: DockerEngine, blind: BlindSet) {
  const hidden = [...(await blind.ids())];
  const activeStatuses = ["QUEUED", "RUNNING"] as ("QUEUED" | "RUNNING")[];
  const since = new Date(Date.now() - 24 * 3600_000);
  const runSelect = {
    id: true,
    kind: true,
    attempt: true,
    status: true,
    phase: true,
    workerId: true,
    heartbeatAt: true,
    attempts: true,
    failureClass: true,
    errorMessage: true,
    createdAt: true,
    startedAt: true,
    finishedAt: true,
    task: { select: { id: true, instanceId: true } },
  } as const;
  const buildSelect = {
    id: true,
    status: true,
    workerId: true,
    heartbeatAt: true,
    attempts: true,
    errorMessage: true,
    createdAt: true,
    startedAt: true,
    finishedAt: true,
    revision: { select: { number: true, environment: { select: { id: true, key: true } } } },
  } as const;
  const [activeRuns, failedRuns, activeBuilds, failedBuilds, counts, queue, availability, workers] = await Promise.all([
    db.validationRun.findMany({
      where: { status: { in: activeStatuses } },
      select: runSelect,
      orderBy: { createdAt: "asc" },
      take: 100,
    }),
    db.validationRun.findMany({
      where: { status: "FAILED", finishedAt: { gte: since } },
      select: runSelect,
      orderBy: { finishedAt: "desc" },
      take: 50,
    }),
    db.build.findMany({
      where: { status: { in: activeStatuses } },
      select: buildSelect,
      orderBy: { createdAt: "asc" },
      take: 100,
    }),
    db.build.findMany({
      where: { status: "FAILED", finishedAt: { gte: since } },
      select: buildSelect,
      orderBy: { finishedAt: "desc" },
      take: 50,
    }),
    db.validationRun.groupBy({
      by: ["status"],
      where: { OR: [{ status: { in: activeStatuses } }, { finishedAt: { gte: since } }], taskId: { notIn: hidden } },
      _count: true,
    }),
    db.$queryRaw<QueueJobRow[]>`
      select id, task_identifier, key, attempts, max_attempts, run_at, locked_at, locked_by, last_error, created_at
      from graphile_worker.jobs order by run_at asc limit 100`,
    dockerAvailability(db, docker),
    listWorkers(db),
  ]);
  return {
    docker: availability,
    runCounts: Object.fromEntries(counts.map((row) => [row.status, row._count])),
    activeRuns: await visibleOnly(blind, activeRuns, (run) => run.task.id),
    failedRuns: await visibleOnly(blind, failedRuns, (run) => run.task.id),
    activeBuilds,
    failedBuilds,
    workers,
    queue: queue.map((job) => ({
      id: Number(job.id),
      name: job.task_identifier,
      key: job.key,
      attempts: job.attempts,
      maxAttempts: job.max_attempts,
      runAt: job.run_at,
      lockedAt: job.locked_at,
      lockedBy: job.locked_by,
      lastError: job.last_error,
      createdAt: job.created_at,
      state: job.locked_at
        ? "running"
        : job.attempts >= job.max_attempts
          ? "failed"
          : job.attempts > 0
            ? "retrying"
            : "queued",
    })),
  };
}

export type JobsOverview = Awaited<ReturnType<typeof jobsOverview>>;
