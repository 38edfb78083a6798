import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { getImportBatch } from "@/lib/imports/import-batches";

/** One import: progress (bytes, counts) while it runs, then its report with the per-record errors. */
export const GET = defineRoute<{ id: string }>(PERMISSIONS["tasks:read"], ({ params }) => getImportBatch(prisma, params.id));
