import type { Task } from "graphile-worker";
import { REPLAY_STEP } from "../../lib/trajectories/replay/replay-job";
import { executeStepReplay } from "../../lib/trajectories/replay/execute-step-replay";
import type { WorkerContext } from "../../lib/worker-runtime/worker-context";

export const replayStep =
  (ctx: WorkerContext): Task =>
  async (payload) => {
    const { replayId } = REPLAY_STEP.payload.parse(payload);
    await executeStepReplay(ctx, replayId);
  };
