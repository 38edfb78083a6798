import type { Task } from "graphile-worker";
import { executeValidationRun } from "../../lib/runs/execute-validation-run";
import { VALIDATE_TASK } from "../../lib/runs/validation-job";
import type { WorkerContext } from "../../lib/worker-runtime/worker-context";

export const validateTask =
  (ctx: WorkerContext): Task =>
  async (payload) => {
    const { runId } = VALIDATE_TASK.payload.parse(payload);
    await executeValidationRun(ctx, runId);
  };
