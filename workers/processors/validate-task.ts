import type { Task } from "graphile-worker";
import { executeValidationRun } from "../../lib/runs/execute-validation-run";
import { ValidateTaskPayloadSchema } from "../../lib/jobs/job-payloads";
import type { WorkerContext } from "../../lib/worker-runtime/worker-context";

export const validateTask =
  (ctx: WorkerContext): Task =>
  async (payload) => {
    const { runId } = ValidateTaskPayloadSchema.parse(payload);
    await executeValidationRun(ctx, runId);
  };
