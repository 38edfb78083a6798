import type { Task } from "graphile-worker";
import { runImportJob } from "../../lib/imports/import-job";
import { ImportFilePayloadSchema } from "../../lib/jobs/job-payloads";
import type { WorkerContext } from "../../lib/worker-runtime/worker-context";

export const importFile =
  (ctx: WorkerContext): Task =>
  async (payload) => {
    const { batchId } = ImportFilePayloadSchema.parse(payload);
    await runImportJob(ctx, batchId);
  };
