import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { run, type Runner } from "graphile-worker";
import { createPrismaClient } from "../lib/db/client";
import { installationId } from "../lib/docker/container-labels";
import { createDockerEngine } from "../lib/docker/dockerode-engine";
import type { DockerEngine } from "../lib/docker/docker-engine";
import { pruneDocker } from "../lib/worker-runtime/prune-docker";
import { queueLogger } from "../lib/db/queue-logger";
import { recoverExpiredLeases } from "../lib/worker-runtime/recover-expired-leases";
import { workerConfigFromEnv, type WorkerConfig } from "../lib/worker-runtime/worker-config";
import type { WorkerContext } from "../lib/worker-runtime/worker-context";
import {
  forgetSilentWorkers,
  recordWorkerHeartbeat,
  removeWorkerHeartbeat,
} from "../lib/worker-runtime/worker-heartbeat";
import { VALIDATE_TASK, VALIDATION_JOB } from "../lib/runs/validation-job";
import { BUILD_ENVIRONMENT, BUILD_JOB } from "../lib/builds/build-job";
import { IMPORT_FILE, recoverImportLeases } from "../lib/imports/import-lease";
import { REPLAY_STEP } from "../lib/trajectories/replay/replay-job";
import { PRUNE_DOCKER } from "../lib/worker-runtime/prune-job";
import { claimPolicy } from "../lib/worker-runtime/claim-policy";
import { createQueuePool } from "../lib/worker-runtime/queue-pool";
import { buildEnvironment } from "./processors/build-environment";
import { importFile } from "./processors/import-file";
import { pruneDocker as pruneDockerProcessor } from "./processors/prune-docker";
import { validateTask } from "./processors/validate-task";
import { replayStep } from "./processors/replay-step";
import { logFailure } from "../lib/errors/log-failure";
import { collectOrphanedBlobs } from "../lib/builds/base-files";

export type WorkerRunnerOptions = {
  connectionString: string;
  concurrency?: number;
  /** overrides for tests and benchmarks; defaults come from the environment */
  config?: Partial<WorkerConfig>;
  docker?: DockerEngine;
  log?: (line: string) => void;
};

export type WorkerRunner = { workerId: string; stop(): Promise<void> };

const HEARTBEAT_EVERY_MS = 5_000;
/** the jobs whose rows lease recovery takes back (imports recover their own way: recoverImportLeases) */
const RECOVERED_JOBS = [VALIDATION_JOB, BUILD_JOB];

/**
 * One worker process's engine: graphile-worker pulling our three job types, plus the
 * timers that make it safe beside others — its own heartbeat row, lease recovery for
 * crashed peers, pruning of orphaned containers on its Docker host, and of file blobs no
 * environment links.
 */
export async function startWorkerRunner(options: WorkerRunnerOptions): Promise<WorkerRunner> {
  const base = workerConfigFromEnv();
  const config: WorkerConfig = {
    ...base,
    ...options.config,
    concurrency: options.concurrency ?? options.config?.concurrency ?? base.concurrency,
  };
  const log = options.log ?? ((line: string) => console.log(`[worker] ${line}`));
  const db = createPrismaClient(options.connectionString, config.concurrency * 2 + 3);
  const docker = options.docker ?? createDockerEngine();
  const workerId = `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
  const shutdown = new AbortController();
  const installation = installationId(options.connectionString);
  const ctx: WorkerContext = {
    db,
    docker,
    workerId,
    installation,
    config,
    shutdownSignal: shutdown.signal,
    running: new Set(),
  };
  const identity = {
    id: workerId,
    hostname: hostname(),
    pid: process.pid,
    concurrency: config.concurrency,
    startedAt: new Date(),
    engineName: config.engineName ?? hostname(),
  };
  const claim = claimPolicy(ctx);

  const beat = async () => {
    const status = await docker.status();
    const facts = status.reachable ? await docker.facts().catch(() => null) : null;
    const healthy = claim.recordEngineCheck(status.reachable);
    const row = await recordWorkerHeartbeat(db, identity, status, healthy, ctx.running.size, facts).catch((error) =>
      log(`heartbeat failed: ${error.message}`),
    );
    const returned = claim.update({ draining: row?.drainRequested, imageHashes: facts?.environmentImageHashes });
    await claim.refreshPeers().catch((error) => log(`could not read the pool's engines: ${error.message}`));
    // containers the engine still holds from before it went away belong to runs now requeued
    if (returned) await prune();
    return status;
  };
  const prune = async () => {
    const report = await pruneDocker({
      db,
      docker,
      installation,
      leaseMs: config.leaseMs,
      imageBudgetBytes: config.danglingImageBudgetBytes,
    }).catch((error) => {
      logFailure("pruning Docker", { log })(error);
      return null;
    });
    if (report?.removedContainers.length) log(`removed ${report.removedContainers.length} orphaned containers`);
  };
  // a deleted environment's base files leave blobs nobody links; a rebuild frees its own at once
  const collectBlobs = async () => {
    const removed = await collectOrphanedBlobs(db).catch((error) => {
      logFailure("collecting the file blobs no environment links", { log })(error);
      return 0;
    });
    if (removed) log(`removed ${removed} file blobs no environment links`);
  };

  const recover = async () => {
    const report = await recoverExpiredLeases(db, config, RECOVERED_JOBS).catch((error) => {
      log(`lease recovery failed: ${error.message}`);
      return null;
    });
    await recoverImportLeases(db, config).catch((error) => log(`import lease recovery failed: ${error.message}`));
    const forgotten = await forgetSilentWorkers(db, config.forgetWorkerAfterMs).catch((error) => {
      logFailure("removing silent workers from the list", { log })(error);
      return 0;
    });
    if (forgotten)
      log(
        `removed ${forgotten} workers silent for over ${Math.round(config.forgetWorkerAfterMs / 1000)} s from the list`,
      );
    if (report && report.requeued.length + report.failed.length + report.cancelled.length + report.reenqueued.length) {
      log(
        `recovered rows of lost workers: requeued ${report.requeued.length}, failed ${report.failed.length}, cancelled ${report.cancelled.length}, re-enqueued ${report.reenqueued.length}`,
      );
      // a dead worker's containers may still run on this host: remove them now, not at the next prune
      if (report.requeued.length + report.failed.length + report.cancelled.length) await prune();
    }
  };
  const status = await beat();
  if (!status.reachable)
    log(`${status.error}. Jobs will fail with that reason until it answers; the dashboard keeps working.`);
  await recover();
  if (status.reachable) await prune();

  // our own pool for the queue: a connection the database drops while we shut down must not crash the
  // process, and a job that ends while the database restarts is marked done once it is back
  const queuePool = createQueuePool({
    connectionString: options.connectionString,
    max: config.concurrency + 4,
    stopping: shutdown.signal,
    log,
  });
  // on the way out the database may already be gone: each step is tried and a failure logged, none blocks the next
  const releaseConnections = async () => {
    await queuePool.end().catch(logFailure("closing the queue's connections", { log }));
    await removeWorkerHeartbeat(db, workerId).catch(logFailure("removing this worker's heartbeat row", { log }));
    await db.$disconnect();
  };
  let runner: Runner;
  try {
    runner = await run({
      pgPool: queuePool,
      concurrency: config.concurrency,
      noHandleSignals: true,
      pollInterval: 1_000,
      logger: queueLogger,
      forbiddenFlags: claim.forbiddenFlags,
      taskList: {
        [BUILD_ENVIRONMENT.name]: buildEnvironment(ctx),
        [VALIDATE_TASK.name]: validateTask(ctx),
        [PRUNE_DOCKER.name]: pruneDockerProcessor(ctx),
        [IMPORT_FILE.name]: importFile(ctx),
        [REPLAY_STEP.name]: replayStep(ctx),
      },
    });
  } catch (error) {
    await releaseConnections();
    throw error;
  }

  const timers = [
    setInterval(() => void beat(), HEARTBEAT_EVERY_MS),
    setInterval(() => void recover(), Math.max(1_000, Math.floor(config.leaseMs / 2))),
    setInterval(() => void prune(), config.pruneIntervalMs),
    setInterval(() => void collectBlobs(), config.pruneIntervalMs),
  ];
  log(`worker ${workerId} started (concurrency ${config.concurrency}, Docker at ${docker.endpoint})`);

  let stopped: Promise<void> | undefined;
  return {
    workerId,
    stop() {
      stopped ??= (async () => {
        timers.forEach(clearInterval);
        // running jobs stop their containers and hand their rows back to the queue
        shutdown.abort();
        await runner.stop().catch(logFailure("stopping the queue runner", { log }));
        await releaseConnections();
        log(`worker ${workerId} stopped`);
      })();
      return stopped;
    },
  };
}
