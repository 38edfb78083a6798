import type { Db, ImportFormat, ImportStatus, PrismaClient } from "../db/client";
import { Prisma } from "../db/client";
import { auditLog } from "../audit/audit-log";
import { workerConfigFromEnv } from "../worker-runtime/worker-config";
import { keepLease, type Lease } from "../worker-runtime/row-lease";
import { inProcessOwner } from "./import-lease";
import { createImportBatch } from "./import-batches";

// One ImportBatch row per import: counts, the first errors (line + reason), progress in
// bytes, the cancel flag a curator sets from the browser or the CLI, and the lease of the
// process importing it. Record files also leave a checkpoint with every write batch, so an
// import whose worker died resumes where it stopped instead of starting over.

export type RecordOutcome = "created" | "updated" | "unchanged";
export type RecordError = { line: number | null; reason: string; key?: string };

/** Only the first errors are kept on the row; the count of failures is always exact. */
export const MAX_STORED_ERRORS = 1000;
const PROGRESS_EVERY_MS = 500;

/** Why an import stopped before its end: a curator cancelled it, or its process lost the batch or is shutting down. */
export class ImportStopped extends Error {
  constructor(readonly why: "cancelled" | "lost" | "shutdown") {
    super(
      why === "cancelled"
        ? "the import was cancelled"
        : why === "lost"
          ? "this process no longer owns the import (its lease expired)"
          : "the worker is shutting down",
    );
  }
}

export type ImportCounts = { created: number; updated: number; unchanged: number; failed: number };

/** What a checkpoint holds: how many records of the file are accounted for, and the counts and errors they gave. */
export type ImportCheckpoint = { records: number; counts: ImportCounts; errors: RecordError[] };

/** The outcome of one write batch, applied to the run only once its transaction committed. */
export type BatchTally = { counts: ImportCounts; errors: RecordError[] };

const noCounts = (): ImportCounts => ({ created: 0, updated: 0, unchanged: 0, failed: 0 });
// jsonb cannot hold NUL characters, and an error must never fail the batch row itself
const clean = (text: string | undefined) => text?.replace(/\u0000/g, "\\u0000").slice(0, 1000);
const cleanError = (error: RecordError): RecordError => ({
  line: error.line,
  reason: clean(error.reason)!,
  ...(error.key ? { key: clean(error.key) } : {}),
});

export type ImportRunStart = {
  fileName: string;
  bytesTotal?: number | null;
  actorId?: string | null;
  batchId?: string;
  onProgress?: (run: ImportRun) => void;
  /** the lease a worker already holds on the batch; without one, this process takes the batch and leases it itself */
  lease?: Lease;
};

/** How many of the tasks a batch wrote got each environment source (IMAGE, RECIPE, SPEC, NONE); null when it wrote none. */
async function environmentSourcesOf(tx: Db, batchId: string): Promise<Record<string, number> | null> {
  const rows = await tx.$queryRaw<{ source: string; n: number }[]>`
    select e.image_source::text as source, count(*)::int as n from tasks t join environments e on e.id = t.environment_id
    where t.import_batch_id = ${batchId} group by 1 order by 1`;
  return rows.length ? Object.fromEntries(rows.map((row) => [row.source, row.n])) : null;
}

export class ImportRun {
  counts: ImportCounts = noCounts();
  errors: RecordError[] = [];
  bytesRead = 0;
  /** trajectory steps written so far (a single trajectory file is one record of 100,000 steps) */
  steps = 0;
  format: ImportFormat = "UNKNOWN";
  /** records of a record file already accounted for by an earlier attempt (skipped on resume) */
  resumeAfter = 0;
  /** what the file or folder was read as ("read as a SWE-bench evaluation run: 1 run, 2 models, 500 instances") */
  readAs: string | null = null;
  /** sentences that hold for the whole batch, each told once however many records it concerns */
  private readonly notes = new Set<string>();
  private readonly noteKeys = new Set<string>();
  private lastProgressAt = 0;
  private cancelled = false;

  constructor(
    readonly db: PrismaClient,
    readonly batchId: string,
    readonly actorId: string | null,
    readonly fileName: string,
    readonly lease: Lease,
    private readonly ownsLease: boolean,
    private readonly onProgress?: (run: ImportRun) => void,
  ) {}

  static async start(db: PrismaClient, input: ImportRunStart) {
    const owner = input.lease?.workerId ?? inProcessOwner();
    const taken = { workerId: owner, heartbeatAt: new Date() };
    const batch = input.batchId
      ? input.lease
        ? await db.importBatch.findUniqueOrThrow({ where: { id: input.batchId } })
        : await db.importBatch.update({
            where: { id: input.batchId },
            data: { ...taken, status: "RUNNING", attempts: { increment: 1 } },
          })
      : await createImportBatch(db, {
          fileName: input.fileName,
          bytesTotal: input.bytesTotal,
          actorId: input.actorId ?? null,
          owner,
        });
    const lease =
      input.lease ?? keepLease({ db, workerId: owner, config: workerConfigFromEnv() }, "import_batches", batch.id);
    const run = new ImportRun(
      db,
      batch.id,
      input.actorId ?? null,
      input.fileName,
      lease,
      !input.lease,
      input.onProgress,
    );
    run.cancelled = batch.cancelRequested;
    run.format = batch.format;
    const checkpoint = batch.checkpoint as ImportCheckpoint | null;
    if (checkpoint) {
      run.resumeAfter = checkpoint.records;
      run.counts = { ...checkpoint.counts };
      run.errors = [...checkpoint.errors];
    }
    return run;
  }

  get total() {
    return this.counts.created + this.counts.updated + this.counts.unchanged + this.counts.failed;
  }

  count(outcome: RecordOutcome, n = 1) {
    this.counts[outcome] += n;
  }

  fail(error: RecordError) {
    this.counts.failed++;
    if (this.errors.length < MAX_STORED_ERRORS) this.errors.push(cleanError(error));
  }

  /** Applies a committed write batch's outcome. */
  apply(tally: BatchTally) {
    for (const key of Object.keys(tally.counts) as (keyof ImportCounts)[]) this.counts[key] += tally.counts[key];
    for (const error of tally.errors) if (this.errors.length < MAX_STORED_ERRORS) this.errors.push(cleanError(error));
  }

  /** A sentence about the whole batch (a --generator the files contradict): kept once, shown with the summary. */
  note(sentence: string, key = sentence) {
    if (!this.noteKeys.has(key)) this.notes.add(sentence);
    this.noteKeys.add(key);
  }

  get summary(): string | null {
    const parts = [this.readAs ? `${this.readAs}.` : null, ...this.notes].filter(Boolean);
    return parts.length ? parts.join(" ") : null;
  }

  async setFormat(format: ImportFormat) {
    this.format = format;
    await this.db.importBatch.update({ where: { id: this.batchId }, data: { format } });
  }

  private owned(data: Prisma.ImportBatchUpdateManyMutationInput) {
    return { where: { id: this.batchId, workerId: this.lease.workerId }, data };
  }

  /** Writes counts and bytes to the row, at most every half second unless forced. */
  async progress(force = false) {
    const now = Date.now();
    this.onProgress?.(this);
    if (!force && now - this.lastProgressAt < PROGRESS_EVERY_MS) return;
    this.lastProgressAt = now;
    await this.db.importBatch.updateMany(
      this.owned({ ...this.counts, bytesRead: BigInt(this.bytesRead), errors: this.errors }),
    );
  }

  /**
   * Records, inside a write batch's transaction, that the first `records` records of the
   * file are accounted for (with the batch's outcome). Throws when this process lost the
   * batch, which rolls the write back: a stale worker never writes beside the new one.
   */
  async checkpoint(tx: Db, records: number, pending: BatchTally = { counts: noCounts(), errors: [] }) {
    const counts = noCounts();
    for (const key of Object.keys(counts) as (keyof ImportCounts)[])
      counts[key] = this.counts[key] + pending.counts[key];
    const errors = [...this.errors, ...pending.errors.map(cleanError)].slice(0, MAX_STORED_ERRORS);
    const checkpoint: ImportCheckpoint = { records, counts, errors };
    const { count } = await tx.importBatch.updateMany(
      this.owned({ ...counts, errors, checkpoint, heartbeatAt: new Date(), bytesRead: BigInt(this.bytesRead) }),
    );
    if (count !== 1) throw new ImportStopped("lost");
  }

  /** Throws ImportStopped once someone asked to cancel, the lease was lost or the worker is stopping; checked between write batches. */
  async checkCancelled() {
    const state = this.lease.state();
    if (this.cancelled || state === "cancelRequested") throw new ImportStopped("cancelled");
    if (state === "lost" || state === "shutdown") throw new ImportStopped(state);
  }

  /** Ends this process's part: releases a lease it took itself. */
  release() {
    if (this.ownsLease) this.lease.stop();
  }

  async finish(outcome: { status?: ImportStatus; errorMessage?: string | null } = {}) {
    this.release();
    // write errors are found batch by batch, after later lines' parse errors: report in file order
    this.errors.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
    const status: ImportStatus =
      outcome.status ??
      (outcome.errorMessage
        ? "FAILED"
        : this.counts.failed === 0
          ? "SUCCEEDED"
          : this.total > this.counts.failed
            ? "PARTIAL"
            : "FAILED");
    const finished = await this.db.$transaction(async (tx) => {
      const environmentSources = await environmentSourcesOf(tx, this.batchId);
      const { count } = await tx.importBatch.updateMany(
        this.owned({
          ...this.counts,
          environmentSources: environmentSources ?? Prisma.DbNull,
          status,
          format: this.format,
          summary: this.summary,
          bytesRead: BigInt(this.bytesRead),
          errors: this.errors,
          errorMessage: outcome.errorMessage ?? null,
          finishedAt: new Date(),
          checkpoint: Prisma.DbNull,
        }),
      );
      if (count !== 1) return false;
      // the stored upload has served its purpose
      await tx.importUploadChunk.deleteMany({ where: { batchId: this.batchId } });
      await auditLog(tx, {
        actorId: this.actorId,
        entityType: "import_batch",
        entityId: this.batchId,
        action: "import.finish",
        after: { fileName: this.fileName, format: this.format, status, ...this.counts },
      });
      return true;
    });
    this.onProgress?.(this);
    const batch = await this.db.importBatch.findUniqueOrThrow({ where: { id: this.batchId } });
    if (!finished) throw new ImportStopped("lost");
    return batch;
  }
}
