import { ZodError } from "zod";
import { AppError } from "../errors/app-error";
import type { Db, ImportFormat, PrismaClient } from "../db/client";
import { parseRecordJson, type RawRecord } from "./read/json-records";
import { describeInvalidRecord, describeRefusal } from "./records/record-errors";
import { ImportStopped, type BatchTally, type ImportRun, type RecordOutcome } from "./import-run";

// The shared loop for files of independent records: parse and validate each record on
// its own, write them in batches (one transaction each, so memory stays bounded and a
// record is never half-written), and if a batch fails, write its records one by one so
// only the bad one is lost, with its line.

export type WriteResult = RecordOutcome | { error: string };

export type RecordImporter<T> = {
  format: ImportFormat;
  /** validates and normalises one parsed record; throws (zod or RecordRejected) when it is not acceptable */
  parse(value: unknown): T;
  /** the natural key: two records with the same key never share a write batch */
  key(record: T): string;
  /** writes records inside one transaction; one result per record, in order */
  write(tx: Db, records: T[], run: ImportRun): Promise<WriteResult[]>;
  batchSize?: number;
};

/** A record that is well-formed JSON but cannot be imported, with the reason. */
export class RecordRejected extends Error {}

export const DEFAULT_BATCH_SIZE = 500;
/** a write batch is flushed early once its records hold this much text */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;
const TRANSACTION_OPTIONS = { maxWait: 60_000, timeout: 300_000 };

export function describeError(error: unknown): string {
  if (error instanceof ZodError) return describeInvalidRecord(error);
  if (error instanceof RecordRejected || error instanceof AppError) return error.message;
  const message = (error as Error)?.message ?? String(error);
  if (/22P05|unsupported Unicode escape|0x00/.test(message))
    return "the record contains a NUL character (\\u0000), which the database cannot store";
  // Prisma's messages are long; their last line says what went wrong
  return message.split("\n").filter(Boolean).slice(-1)[0]?.slice(0, 500) ?? "unknown error";
}

type Pending<T> = { line: number; record: T; key: string };

/**
 * A record from a file: JSON text (JSONL, arrays) or a value already decoded (Parquet rows).
 * `through` says how many records of the file are accounted for with this one, when a
 * source counts them itself (it may skip ahead on resume, or report many rows at once).
 */
export type SourceRecord = (RawRecord | { line: number; value: unknown; bytes: number }) & { through?: number };

export type ImportRecordsOptions = {
  /** leave a checkpoint with every write batch and skip what an earlier attempt accounted for (top-level files only) */
  resumable?: boolean;
};

function tallyOf<T>(items: Pending<T>[], results: WriteResult[]): BatchTally {
  const tally: BatchTally = { counts: { created: 0, updated: 0, unchanged: 0, failed: 0 }, errors: [] };
  items.forEach((item, i) => {
    const result = results[i];
    if (typeof result === "string") tally.counts[result]++;
    else {
      tally.counts.failed++;
      tally.errors.push({ line: item.line, key: item.key, reason: result?.error ?? "the writer returned no result" });
    }
  });
  return tally;
}

function decode(raw: SourceRecord): { value: unknown } | { error: string } {
  if ("error" in raw) return { error: raw.error };
  if ("value" in raw) return { value: raw.value };
  return parseRecordJson(raw.text);
}

export async function importRecords<T>(
  db: PrismaClient,
  raws: AsyncIterable<SourceRecord>,
  importer: RecordImporter<T>,
  run: ImportRun,
  options: ImportRecordsOptions = {},
) {
  const batchSize = importer.batchSize ?? DEFAULT_BATCH_SIZE;
  const skip = options.resumable ? run.resumeAfter : 0;
  let pending: Pending<T>[] = [];
  let pendingKeys = new Set<string>();
  let pendingBytes = 0;
  /** records of the file read so far, and how many of them are accounted for (failed, or in a write batch) */
  let seen = 0;
  let accounted = 0;

  const writeBatch = (items: Pending<T>[], through: number) =>
    db.$transaction(async (tx) => {
      const results = await importer.write(
        tx,
        items.map((i) => i.record),
        run,
      );
      const tally = tallyOf(items, results);
      if (options.resumable) await run.checkpoint(tx, through, tally);
      return tally;
    }, TRANSACTION_OPTIONS);

  const flush = async () => {
    if (!pending.length) return;
    const items = pending;
    const through = accounted;
    pending = [];
    pendingKeys = new Set();
    pendingBytes = 0;
    await run.checkCancelled();
    try {
      run.apply(await writeBatch(items, through));
    } catch (error) {
      if (error instanceof ImportStopped) throw error;
      // something in the batch broke the transaction: isolate it record by record
      for (const item of items) {
        try {
          const [result] = await db.$transaction((tx) => importer.write(tx, [item.record], run), TRANSACTION_OPTIONS);
          run.apply(tallyOf([item], [result]));
        } catch (error) {
          run.fail({ line: item.line, key: item.key, reason: describeError(error) });
        }
      }
      if (options.resumable) await run.checkpoint(db, through);
    }
    await run.progress();
  };

  for await (const raw of raws) {
    seen = raw.through ?? seen + 1;
    if (seen <= skip) continue;
    const decoded = decode(raw);
    if ("error" in decoded) {
      run.fail({ line: raw.line, reason: decoded.error });
      accounted = seen;
      continue;
    }
    let record: T;
    try {
      record = importer.parse(decoded.value);
    } catch (error) {
      run.fail({
        line: raw.line,
        key: keyOf(decoded.value),
        reason: error instanceof ZodError ? describeRefusal(importer.format, error) : describeError(error),
      });
      accounted = seen;
      continue;
    }
    const key = importer.key(record);
    if (pendingKeys.has(key)) await flush();
    pending.push({ line: raw.line, record, key });
    pendingKeys.add(key);
    pendingBytes += raw.bytes;
    accounted = seen;
    if (pending.length >= batchSize || pendingBytes >= MAX_BATCH_BYTES) await flush();
  }
  await flush();
}

function keyOf(value: unknown): string | undefined {
  const id = (value as { instance_id?: unknown } | null)?.instance_id;
  return typeof id === "string" ? id : undefined;
}

/** Writes one record in its own transaction and accounts for it (documents, folders). */
export async function importOne<T>(
  db: PrismaClient,
  write: RecordImporter<T>["write"],
  record: T,
  run: ImportRun,
  where: { line?: number | null; key?: string },
) {
  try {
    const [result] = await db.$transaction((tx) => write(tx, [record], run), TRANSACTION_OPTIONS);
    if (typeof result === "string") run.count(result);
    else run.fail({ line: where.line ?? null, key: where.key, reason: result.error });
  } catch (error) {
    run.fail({ line: where.line ?? null, key: where.key, reason: describeError(error) });
  }
  await run.progress();
}
