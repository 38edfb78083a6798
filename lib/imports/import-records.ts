import { ZodError } from "zod";
import { AppError } from "../errors/app-error";
import type { Db, ImportFormat, PrismaClient } from "../db/client";
import { parseRecordJson, type RawRecord } from "./read/json-records";
import { describeInvalidRecord } from "./formats/record-errors";
import type { ImportRun, RecordOutcome } from "./import-run";

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
  if (/22P05|unsupported Unicode escape|0x00/.test(message)) return "the record contains a NUL character (\\u0000), which the database cannot store";
  // Prisma's messages are long; their last line says what went wrong
  return message.split("\n").filter(Boolean).slice(-1)[0]?.slice(0, 500) ?? "unknown error";
}

type Pending<T> = { line: number; record: T; key: string };

export async function importRecords<T>(db: PrismaClient, raws: AsyncIterable<RawRecord>, importer: RecordImporter<T>, run: ImportRun) {
  const batchSize = importer.batchSize ?? DEFAULT_BATCH_SIZE;
  let pending: Pending<T>[] = [];
  let pendingKeys = new Set<string>();
  let pendingBytes = 0;

  const tally = (items: Pending<T>[], results: WriteResult[]) => {
    items.forEach((item, i) => {
      const result = results[i];
      if (typeof result === "string") run.count(result);
      else run.fail({ line: item.line, key: item.key, reason: result?.error ?? "the writer returned no result" });
    });
  };

  const flush = async () => {
    if (!pending.length) return;
    const items = pending;
    pending = [];
    pendingKeys = new Set();
    pendingBytes = 0;
    await run.checkCancelled();
    try {
      const results = await db.$transaction((tx) => importer.write(tx, items.map((i) => i.record), run), TRANSACTION_OPTIONS);
      tally(items, results);
    } catch {
      // something in the batch broke the transaction: isolate it record by record
      for (const item of items) {
        try {
          const [result] = await db.$transaction((tx) => importer.write(tx, [item.record], run), TRANSACTION_OPTIONS);
          tally([item], [result]);
        } catch (error) {
          run.fail({ line: item.line, key: item.key, reason: describeError(error) });
        }
      }
    }
    await run.progress();
  };

  for await (const raw of raws) {
    if ("error" in raw) {
      run.fail({ line: raw.line, reason: raw.error });
      continue;
    }
    const parsed = parseRecordJson(raw.text);
    if ("error" in parsed) {
      run.fail({ line: raw.line, reason: parsed.error });
      continue;
    }
    let record: T;
    try {
      record = importer.parse(parsed.value);
    } catch (error) {
      run.fail({ line: raw.line, key: keyOf(parsed.value), reason: describeError(error) });
      continue;
    }
    const key = importer.key(record);
    if (pendingKeys.has(key)) await flush();
    pending.push({ line: raw.line, record, key });
    pendingKeys.add(key);
    pendingBytes += raw.bytes;
    if (pending.length >= batchSize || pendingBytes >= MAX_BATCH_BYTES) await flush();
  }
  await flush();
}

function keyOf(value: unknown): string | undefined {
  const id = (value as { instance_id?: unknown } | null)?.instance_id;
  return typeof id === "string" ? id : undefined;
}

/** Writes one record in its own transaction and accounts for it (documents, folders). */
export async function importOne<T>(db: PrismaClient, write: RecordImporter<T>["write"], record: T, run: ImportRun, where: { line?: number | null; key?: string }) {
  try {
    const [result] = await db.$transaction((tx) => write(tx, [record], run), TRANSACTION_OPTIONS);
    if (typeof result === "string") run.count(result);
    else run.fail({ line: where.line ?? null, key: where.key, reason: result.error });
  } catch (error) {
    run.fail({ line: where.line ?? null, key: where.key, reason: describeError(error) });
  }
  await run.progress();
}
