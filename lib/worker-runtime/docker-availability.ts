import type { PrismaClient } from "../db/client";
import type { DockerEngine } from "../docker/docker-engine";
import { listWorkers } from "./list-workers";

/**
 * Whether jobs can run: the web process's own ping of Docker plus what live workers
 * report (workers may run on other machines with their own Docker hosts).
 */
export async function dockerAvailability(db: PrismaClient, docker: DockerEngine) {
  const [web, workers] = await Promise.all([docker.status(), listWorkers(db)]);
  const live = workers.filter((worker) => worker.alive);
  const workersWithDocker = live.filter((worker) => worker.dockerOk).length;
  const problem = !live.length
    ? "No worker is running: builds and validations wait in the queue until one starts (npm run worker)"
    : !workersWithDocker
      ? `Docker engine not reachable from any worker: ${live[0].dockerInfo ?? "no details"}`
      : null;
  return { web, liveWorkers: live.length, workersWithDocker, canRunJobs: workersWithDocker > 0, problem };
}
