import { z } from "zod";
import type { PrismaClient } from "../db/client";
import { enqueueJob } from "../jobs/enqueue-job";
import { defineJob } from "../jobs/job-type";

/** Prunes one worker's Docker host now (workers/processors/prune-docker.ts); each worker also prunes on a timer. */
export const PRUNE_DOCKER = defineJob({
  name: "prune-docker",
  needs: "docker",
  payload: z.object({ requestedById: z.string().nullish() }),
});

/** Asks one worker to prune its Docker host now: one request waits on the queue at a time. */
export async function requestPrune(db: PrismaClient, actorId: string | null) {
  await enqueueJob(db, PRUNE_DOCKER, { requestedById: actorId }, { jobKey: PRUNE_DOCKER.name, maxAttempts: 1 });
  return { queued: true };
}
