import type { ImportFormat, ImportStatus, PrismaClient } from "../db/client";
import { auditLog } from "../audit/audit-log";

// One ImportBatch row per import: counts, the first errors (line + reason), progress in
// bytes, and the cancel flag a curator sets from the browser or the CLI.

export type RecordOutcome = "created" | "updated" | "unchanged";
export type RecordError = { line: number | null; reason: string; key?: string };

/** Only the first errors are kept on the row; the count of failures is always exact. */
export const MAX_STORED_ERRORS = 1000;
const PROGRESS_EVERY_MS = 500;
const CANCEL_CHECK_EVERY_MS = 1000;

export class ImportCancelled extends Error {
  constructor() {
    super("the import was cancelled");
  }
}

export type ImportCounts = { created: number; updated: number; unchanged: number; failed: number };

export class ImportRun {
  readonly counts: ImportCounts = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  readonly errors: RecordError[] = [];
  bytesRead = 0;
  format: ImportFormat = "UNKNOWN";
  private lastProgressAt = 0;
  private lastCancelCheckAt = 0;
  private cancelled = false;

  constructor(
    readonly db: PrismaClient,
    readonly batchId: string,
    readonly actorId: string | null,
    readonly fileName: string,
    private readonly onProgress?: (run: ImportRun) => void,
  ) {}

  static async start(db: PrismaClient, input: { fileName: string; bytesTotal?: number | null; actorId?: string | null; batchId?: string; onProgress?: (run: ImportRun) => void }) {
    const batch = input.batchId
      ? await db.importBatch.findUniqueOrThrow({ where: { id: input.batchId } })
      : await db.importBatch.create({ data: { fileName: input.fileName, bytesTotal: input.bytesTotal ?? null, userId: input.actorId ?? null } });
    return new ImportRun(db, batch.id, input.actorId ?? null, input.fileName, input.onProgress);
  }

  get total() {
    return this.counts.created + this.counts.updated + this.counts.unchanged + this.counts.failed;
  }

  count(outcome: RecordOutcome, n = 1) {
    this.counts[outcome] += n;
  }

  fail(error: RecordError) {
    this.counts.failed++;
    // jsonb cannot hold NUL characters, and an error must never fail the batch row itself
    const clean = (text: string | undefined) => text?.replace(/\u0000/g, "\\u0000").slice(0, 1000);
    if (this.errors.length < MAX_STORED_ERRORS) this.errors.push({ line: error.line, reason: clean(error.reason)!, ...(error.key ? { key: clean(error.key) } : {}) });
  }

  async setFormat(format: ImportFormat) {
    this.format = format;
    await this.db.importBatch.update({ where: { id: this.batchId }, data: { format } });
  }

  /** Writes counts and bytes to the row, at most every half second unless forced. */
  async progress(force = false) {
    const now = Date.now();
    this.onProgress?.(this);
    if (!force && now - this.lastProgressAt < PROGRESS_EVERY_MS) return;
    this.lastProgressAt = now;
    await this.db.importBatch.update({
      where: { id: this.batchId },
      data: { ...this.counts, bytesRead: BigInt(this.bytesRead), errors: this.errors },
    });
  }

  /** Throws ImportCancelled once someone asked to cancel; checked between write batches. */
  async checkCancelled() {
    const now = Date.now();
    if (!this.cancelled && now - this.lastCancelCheckAt >= CANCEL_CHECK_EVERY_MS) {
      this.lastCancelCheckAt = now;
      const row = await this.db.importBatch.findUnique({ where: { id: this.batchId }, select: { cancelRequested: true } });
      this.cancelled = !!row?.cancelRequested;
    }
    if (this.cancelled) throw new ImportCancelled();
  }

  async finish(outcome: { status?: ImportStatus; errorMessage?: string | null } = {}) {
    // write errors are found batch by batch, after later lines' parse errors: report in file order
    this.errors.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
    const status: ImportStatus =
      outcome.status ?? (outcome.errorMessage ? "FAILED" : this.counts.failed === 0 ? "SUCCEEDED" : this.total > this.counts.failed ? "PARTIAL" : "FAILED");
    const batch = await this.db.importBatch.update({
      where: { id: this.batchId },
      data: {
        ...this.counts,
        status,
        format: this.format,
        bytesRead: BigInt(this.bytesRead),
        errors: this.errors,
        errorMessage: outcome.errorMessage ?? null,
        finishedAt: new Date(),
      },
    });
    await auditLog(this.db, {
      actorId: this.actorId,
      entityType: "import_batch",
      entityId: this.batchId,
      action: "import.finish",
      after: { fileName: batch.fileName, format: batch.format, status, ...this.counts },
    });
    this.onProgress?.(this);
    return batch;
  }
}
