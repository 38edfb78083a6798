import { defineRoute } from "@/lib/http/define-route";
import { ListImportBatchesSchema, listImportBatches } from "@/lib/imports/import-batches";
import { UploadOptionsSchema, fileNameFromHeader, startUploadImport } from "@/lib/imports/upload-import";
import { ImportBatchSchema, ImportPageSchema } from "@/lib/http/api-schemas";

/** The history of imports, newest first. */
export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "The history of imports, newest first",
    query: ListImportBatchesSchema,
    response: ImportPageSchema,
  },
  ({ db, query }) => listImportBatches(db, query),
);

/**
 * Upload a file to import: the raw bytes as the body, stored in the database in 4 MiB chunks
 * as they arrive (never held whole), so a worker on any machine can read them; its name in
 * x-file-name (or ?fileName=). Answers 202 with the ImportBatch once the bytes are in and the
 * import is queued; poll GET /api/v1/imports/:id for progress and the report.
 */
export const POST = defineRoute(
  {
    permission: "imports:run",
    summary: "Upload a file to import (raw bytes, streamed); its name in x-file-name or ?fileName=",
    query: UploadOptionsSchema.partial(),
    consumes: "application/octet-stream",
    response: ImportBatchSchema,
    status: 202,
    idempotent: true,
  },
  async ({ db, request, query, actor }) => {
    const options = UploadOptionsSchema.parse({
      ...query,
      fileName: fileNameFromHeader(request.headers.get("x-file-name")) ?? query.fileName,
    });
    const length = Number(request.headers.get("content-length"));
    return startUploadImport(db, request.body, {
      ...options,
      actorId: actor.id,
      bytesTotal: Number.isFinite(length) && length > 0 ? length : null,
    });
  },
);
