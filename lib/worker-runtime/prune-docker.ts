import type { PrismaClient } from "../db/client";
import type { DockerEngine, LabelledContainer } from "../docker/docker-engine";
import {
  LABEL_BUILD_ID,
  LABEL_INSTALLATION,
  LABEL_REPLAY_ID,
  LABEL_RUN_ID,
  LABEL_WORKER_ID,
} from "../docker/container-labels";

export type PruneReport = { removedContainers: string[]; removedImages: number; freedBytes: number };

type RowState = { status: string; workerId: string | null; heartbeatAt: Date | null } | null;

async function rowFor(db: PrismaClient, container: LabelledContainer): Promise<RowState> {
  const runId = container.labels[LABEL_RUN_ID];
  if (runId)
    return db.validationRun.findUnique({
      where: { id: runId },
      select: { status: true, workerId: true, heartbeatAt: true },
    });
  const buildId = container.labels[LABEL_BUILD_ID];
  if (buildId)
    return db.build.findUnique({ where: { id: buildId }, select: { status: true, workerId: true, heartbeatAt: true } });
  const replayId = container.labels[LABEL_REPLAY_ID];
  if (replayId)
    return db.stepReplay.findUnique({
      where: { id: replayId },
      select: { status: true, workerId: true, heartbeatAt: true },
    });
  return null;
}

/**
 * Removes our labelled containers whose job is no longer running under a live worker —
 * the container of a SIGKILLed worker, or one left by a daemon hiccup — and dangling
 * images beyond the budget. Containers of other software, or of another SWE Curator
 * database on the same Docker host, are never touched.
 */
export async function pruneDocker(deps: {
  db: PrismaClient;
  docker: DockerEngine;
  installation: string;
  leaseMs: number;
  imageBudgetBytes: number;
}): Promise<PruneReport> {
  const removedContainers: string[] = [];
  const now = Date.now();
  for (const container of await deps.docker.listLabelledContainers()) {
    // another installation's (or another test database's) container: its rows are not ours to read
    if (container.labels[LABEL_INSTALLATION] !== deps.installation) continue;
    const row = await rowFor(deps.db, container);
    const alive =
      row?.status === "RUNNING" &&
      row.workerId === container.labels[LABEL_WORKER_ID] &&
      !!row.heartbeatAt &&
      now - row.heartbeatAt.getTime() < deps.leaseMs;
    if (alive) continue;
    await deps.docker.removeContainer(container.id);
    removedContainers.push(container.id);
  }
  const images = await deps.docker.pruneDanglingImages(deps.imageBudgetBytes);
  return { removedContainers, removedImages: images.removed, freedBytes: images.freedBytes };
}

/**
 * Removes the containers an earlier attempt of this run left on this installation's Docker
 * host (an engine that stopped under it leaves its container behind), before the retry
 * starts its own.
 */
export async function reapContainersOfRun(
  deps: { docker: DockerEngine; installation: string },
  runId: string,
): Promise<void> {
  for (const container of await deps.docker.listLabelledContainers()) {
    if (container.labels[LABEL_INSTALLATION] === deps.installation && container.labels[LABEL_RUN_ID] === runId)
      await deps.docker.removeContainer(container.id);
  }
}
