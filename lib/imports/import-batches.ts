import { z } from "zod";
import type { Db, Prisma, PrismaClient } from "../db/client";
import { notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import { removeQueuedJob } from "../jobs/enqueue-job";
import { IMPORT_FILE } from "./import-lease";

// Reading and cancelling ImportBatches for the Imports page, the API and the CLI. A batch
// whose importer died is settled by the workers' lease recovery (import-lease.ts).

export type NewImportBatch = {
  fileName: string;
  bytesTotal?: number | null;
  actorId: string | null;
  /** the importer running it now (a file imported in this process); without one the batch waits QUEUED for a worker */
  owner?: string;
  /** what the importer is told about the file (source, generator, instance) */
  options?: Prisma.InputJsonValue;
};

/** The ImportBatch row a new import reports its progress and outcome on. */
export function createImportBatch(db: Db, batch: NewImportBatch) {
  const common = {
    fileName: batch.fileName,
    bytesTotal: batch.bytesTotal ?? null,
    userId: batch.actorId,
    options: batch.options,
    heartbeatAt: new Date(),
  };
  return db.importBatch.create({
    data: batch.owner ? { ...common, workerId: batch.owner, attempts: 1 } : { ...common, status: "QUEUED" },
  });
}

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
  summary: true,
  environmentSources: true,
  cancelRequested: true,
  startedAt: true,
  finishedAt: true,
  updatedAt: true,
  attempts: true,
  heartbeatAt: true,
  user: { select: { name: true, email: true } },
} as const;

export async function listImportBatches(db: PrismaClient, input: z.input<typeof ListImportBatchesSchema> = {}) {
  const { limit, cursor } = ListImportBatchesSchema.parse(input);
  const rows = await db.importBatch.findMany({
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    select: summary,
  });
  return { items: rows.slice(0, limit), nextCursor: rows.length > limit ? rows[limit - 1].id : null };
}

/** One batch with its errors (the first 1,000, each with its line and reason). */
export async function getImportBatch(db: PrismaClient, id: string) {
  const batch = await db.importBatch.findUnique({ where: { id }, select: { ...summary, errors: true } });
  if (!batch) throw notFound("The import");
  return batch;
}

/**
 * Cancels an import: a queued one at once (its stored upload is dropped), a running one at
 * its next write batch; records already written stay.
 */
export async function cancelImport(db: PrismaClient, id: string, actorId: string | null) {
  const batch = await db.importBatch.findUnique({ where: { id }, select: { status: true } });
  if (!batch) throw notFound("The import");
  if (batch.status !== "RUNNING" && batch.status !== "QUEUED") return getImportBatch(db, id);
  await db.$transaction(async (tx) => {
    const queued = await tx.importBatch.updateMany({
      where: { id, status: "QUEUED" },
      data: {
        status: "CANCELLED",
        cancelRequested: true,
        errorMessage: "Cancelled before it started; nothing was imported",
        finishedAt: new Date(),
      },
    });
    if (queued.count) {
      await removeQueuedJob(tx, IMPORT_FILE.keyFor(id));
      await tx.importUploadChunk.deleteMany({ where: { batchId: id } });
    } else await tx.importBatch.updateMany({ where: { id, status: "RUNNING" }, data: { cancelRequested: true } });
    await auditLog(tx, { actorId, entityType: "import_batch", entityId: id, action: "import.cancel" });
  });
  return getImportBatch(db, id);
}
