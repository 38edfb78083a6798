import { z } from "zod";
import type { Db } from "../db/client";
import { notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";

// Reading and cancelling ImportBatches for the Imports page, the API and the CLI.

/** A RUNNING batch that has not moved for this long lost its process (a restart, a crash). */
export const STALE_AFTER_MS = 5 * 60_000;

export const ListImportBatchesSchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().optional(),
});

const summary = {
  id: true,
  fileName: true,
  format: true,
  status: true,
  bytesTotal: true,
  bytesRead: true,
  created: true,
  updated: true,
  unchanged: true,
  failed: true,
  errorMessage: true,
  cancelRequested: true,
  startedAt: true,
  finishedAt: true,
  updatedAt: true,
  user: { select: { name: true, email: true } },
} as const;

/** Marks batches whose importer died as failed, so nothing shows "running" forever. */
async function settleStale(db: Db) {
  const stale = await db.importBatch.findMany({ where: { status: "RUNNING", updatedAt: { lt: new Date(Date.now() - STALE_AFTER_MS) } }, select: { id: true } });
  if (!stale.length) return;
  await db.importBatch.updateMany({
    where: { id: { in: stale.map((b) => b.id) }, status: "RUNNING" },
    data: { status: "FAILED", errorMessage: "The import stopped making progress (the server restarted or crashed); the records written before are kept — import the file again to finish it", finishedAt: new Date() },
  });
}

export async function listImportBatches(db: Db, input: z.input<typeof ListImportBatchesSchema> = {}) {
  const { limit, cursor } = ListImportBatchesSchema.parse(input);
  await settleStale(db);
  const rows = await db.importBatch.findMany({
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    select: summary,
  });
  return { items: rows.slice(0, limit), nextCursor: rows.length > limit ? rows[limit - 1].id : null };
}

/** One batch with its errors (the first 1,000, each with its line and reason). */
export async function getImportBatch(db: Db, id: string) {
  await settleStale(db);
  const batch = await db.importBatch.findUnique({ where: { id }, select: { ...summary, errors: true } });
  if (!batch) throw notFound("The import");
  return batch;
}

/** Asks a running import to stop at its next write batch; records already written stay. */
export async function cancelImport(db: Db, id: string, actorId: string | null) {
  const batch = await db.importBatch.findUnique({ where: { id }, select: { status: true } });
  if (!batch) throw notFound("The import");
  if (batch.status !== "RUNNING") return getImportBatch(db, id);
  await db.importBatch.update({ where: { id }, data: { cancelRequested: true } });
  await auditLog(db, { actorId, entityType: "import_batch", entityId: id, action: "import.cancel" });
  return getImportBatch(db, id);
}
