import { defineRoute, parseQuery } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { ListImportBatchesSchema, listImportBatches } from "@/lib/imports/import-batches";
import { UploadOptionsSchema, startUploadImport } from "@/lib/imports/upload-import";

/** The history of imports, newest first. */
export const GET = defineRoute(PERMISSIONS["tasks:read"], ({ url }) => listImportBatches(prisma, parseQuery(url, ListImportBatchesSchema)));

/**
 * Upload a file to import: the raw bytes as the body (streamed to disk, never buffered),
 * its name in x-file-name (or ?fileName=). Answers 202 with the ImportBatch once the
 * bytes are in; poll GET /api/v1/imports/:id for progress and the report.
 */
export const POST = defineRoute(PERMISSIONS["imports:run"], async ({ request, url, actor }) => {
  const headerName = request.headers.get("x-file-name");
  const query = parseQuery(url, UploadOptionsSchema.partial());
  const options = UploadOptionsSchema.parse({ ...query, fileName: headerName ? decodeURIComponent(headerName) : query.fileName });
  const length = Number(request.headers.get("content-length"));
  const batch = await startUploadImport(prisma, request.body, { ...options, actorId: actor.id, bytesTotal: Number.isFinite(length) && length > 0 ? length : null });
  return new Response(JSON.stringify(batch, (_k, v) => (typeof v === "bigint" ? Number(v) : v)), { status: 202, headers: { "content-type": "application/json" } });
});
