import type { Task } from "graphile-worker";
import { runImportJob } from "../../lib/imports/import-job";
import { IMPORT_FILE } from "../../lib/imports/import-lease";
import type { WorkerContext } from "../../lib/worker-runtime/worker-context";

export const importFile =
  (ctx: WorkerContext): Task =>
  async (payload) => {
    const { batchId } = IMPORT_FILE.payload.parse(payload);
    await runImportJob(ctx, batchId);
  };
