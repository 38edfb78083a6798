import { z } from "zod";
import { defineJob } from "../../jobs/job-type";

/** Replays a trajectory up to one step in a container (workers/processors/replay-step.ts). */
export const REPLAY_STEP = defineJob({
  name: "replay-step",
  needs: "docker",
  payload: z.object({ replayId: z.string().min(1) }),
});
