import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { cancelImport } from "@/lib/imports/import-batches";
import { IdParams, ImportBatchSchema } from "@/lib/http/api-schemas";

/** Stops a running import at its next write batch; what was written stays. */
export const POST = defineRoute(
  { permission: "imports:run", summary: "Stop a running import at its next write batch (what was written stays)", params: IdParams, response: ImportBatchSchema },
  ({ params, actor }) => cancelImport(prisma, params.id, actor.id),
);
