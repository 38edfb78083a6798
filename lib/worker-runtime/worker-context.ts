import type { PrismaClient } from "../db/client";
import type { DockerEngine } from "../docker/docker-engine";
import type { WorkerConfig } from "./worker-config";

/** What every processor gets: its database, its Docker host, who it is, its settings. */
export type WorkerContext = {
  db: PrismaClient;
  docker: DockerEngine;
  workerId: string;
  /** the database this worker serves, as labelled on its containers (see installationId) */
  installation: string;
  config: WorkerConfig;
  /** aborted when the worker shuts down: running jobs hand their rows back to the queue */
  shutdownSignal: AbortSignal;
  /** rows this process is working on right now (heartbeat and prune read it) */
  running: Set<string>;
};
