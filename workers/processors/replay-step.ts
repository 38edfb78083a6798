import type { Task } from "graphile-worker";
import { ReplayStepPayloadSchema } from "../../lib/jobs/job-payloads";
import { executeStepReplay } from "../../lib/trajectories/replay/execute-step-replay";
import type { WorkerContext } from "../../lib/worker-runtime/worker-context";

export const replayStep =
  (ctx: WorkerContext): Task =>
  async (payload) => {
    const { replayId } = ReplayStepPayloadSchema.parse(payload);
    await executeStepReplay(ctx, replayId);
  };
