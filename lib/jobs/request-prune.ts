import type { PrismaClient } from "../db/client";
import { enqueueJob } from "./enqueue-job";
import { JOB_NAMES } from "./job-names";

/** Asks one worker to prune its Docker host now (each worker also prunes on a timer). */
export async function requestPrune(db: PrismaClient, actorId: string | null) {
  await enqueueJob(
    db,
    JOB_NAMES.pruneDocker,
    { requestedById: actorId },
    { jobKey: JOB_NAMES.pruneDocker, maxAttempts: 1 },
  );
  return { queued: true };
}
