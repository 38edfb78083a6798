import { defineRoute } from "@/lib/http/define-route";
import { getImportBatch } from "@/lib/imports/import-batches";
import { IdParams, ImportBatchSchema } from "@/lib/http/api-schemas";

/** One import: progress (bytes, counts) while it runs, then its report with the per-record errors. */
export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "One import: progress while it runs, then its report with per-record errors",
    params: IdParams,
    response: ImportBatchSchema,
  },
  ({ db, params }) => getImportBatch(db, params.id),
);
