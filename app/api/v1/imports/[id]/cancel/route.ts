import { defineRoute } from "@/lib/http/define-route";
import { cancelImport } from "@/lib/imports/import-batches";
import { IdParams, ImportBatchSchema } from "@/lib/http/api-schemas";

/** Stops a running import at its next write batch; what was written stays. */
export const POST = defineRoute(
  {
    permission: "imports:run",
    summary: "Stop a running import at its next write batch (what was written stays)",
    params: IdParams,
    response: ImportBatchSchema,
  },
  ({ db, params, actor }) => cancelImport(db, params.id, actor.id),
);
