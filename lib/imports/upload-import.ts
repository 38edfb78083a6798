import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import type { Db, PrismaClient } from "../db/client";
import { TaskSource } from "../db/enums";
import { AppError } from "../errors/app-error";
import { formatBytes } from "./read/json-records";
import { enqueueImportJob } from "./import-lease";
import { configFrom, type EnvironmentSource } from "../config/server-config";
import { createImportBatch } from "./import-batches";

// An upload from the browser or the CLI: the web process only stores the bytes — in the
// database, in chunks, so a worker on any machine can read them — and enqueues the import.
// The worker's progress and outcome live on the ImportBatch row the caller polls.

/** The largest upload accepted (SWE_CURATOR_MAX_UPLOAD_BYTES): the body is refused with 413 as soon as it passes this. */
export const maxUploadBytes = (source?: EnvironmentSource) => configFrom(source).SWE_CURATOR_MAX_UPLOAD_BYTES;

/** bytes per stored chunk: large enough to be quick, small enough to hold one in memory */
const CHUNK_BYTES = 4 * 1024 * 1024;

// control characters (NUL included) and the bidirectional overrides that make a name read backwards
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A client's file name as a label that is safe to show and store: path separators become
 * "_" (so it is one base name), control characters go. "." and ".." name no file and are
 * refused. The name is never a path: the worker writes the upload to a name of its own.
 */
export const SafeFileNameSchema = z
  .string()
  .transform((name) => name.replace(UNPRINTABLE, "").replace(/[\\/]/g, "_").trim())
  .pipe(
    z
      .string()
      .min(1, "must name the file (x-file-name header or ?fileName=)")
      .max(300, "is too long: at most 300 characters")
      .refine(
        (name) => name !== "." && name !== "..",
        "must be the file's own name (such as tasks.jsonl), not . or ..",
      ),
  );

/** A label from the query (the database stores no NUL; nobody reads a control character). */
const printableLabel = z
  .string()
  .transform((text) => text.replace(UNPRINTABLE, "").trim())
  .pipe(z.string().min(1).max(300));

export const UploadOptionsSchema = z.object({
  fileName: SafeFileNameSchema,
  source: z.enum(TaskSource).optional(),
  generator: printableLabel.optional(),
  instanceId: printableLabel.optional(),
});
export type UploadOptions = z.input<typeof UploadOptionsSchema>;

export const uploadTooLarge = (max: number) =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    `The upload is larger than the ${formatBytes(max)} limit (SWE_CURATOR_MAX_UPLOAD_BYTES); nothing was stored`,
  );

/** Stores the body as chunks of the batch; throws 413 as soon as it passes `max` bytes. */
async function storeChunks(db: PrismaClient, batchId: string, body: ReadableStream<Uint8Array>, max: number) {
  let seq = 0;
  let total = 0;
  let parts: Buffer[] = [];
  let size = 0;
  const store = async () => {
    if (!size) return;
    const data = parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
    parts = [];
    size = 0;
    await db.importUploadChunk.create({
      data: {
        batchId,
        seq: seq++,
        data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) as Uint8Array<ArrayBuffer>,
      },
    });
    // the heartbeat tells recovery the upload is still arriving
    await db.importBatch.update({ where: { id: batchId }, data: { heartbeatAt: new Date() } });
  };
  for await (const piece of Readable.fromWeb(body as import("node:stream/web").ReadableStream)) {
    const chunk = piece as Buffer;
    total += chunk.length;
    if (total > max) throw uploadTooLarge(max);
    parts.push(chunk);
    size += chunk.length;
    if (size >= CHUNK_BYTES) await store();
  }
  await store();
  return total;
}

/**
 * Writes a stored upload back to a file, one chunk in memory at a time (archives and Parquet
 * need random access). A file that cannot be written rejects; it never surfaces as an
 * unhandled stream error, which would end the worker process.
 */
export async function restoreUpload(db: Db, batchId: string, filePath: string) {
  async function* chunks() {
    for (let seq = 0; ; seq++) {
      const chunk = await db.importUploadChunk.findUnique({
        where: { batchId_seq: { batchId, seq } },
        select: { data: true },
      });
      if (!chunk) return;
      yield chunk.data;
    }
  }
  await pipeline(Readable.from(chunks()), createWriteStream(filePath, { flags: "wx" }));
}

const badHeader = (detail: string) =>
  new AppError("BAD_REQUEST", `The request header is not valid: ${detail}.`, undefined, [
    { field: "x-file-name", in: "header", pointer: "/x-file-name", detail },
  ]);

/**
 * The file name an upload's x-file-name header carries (percent-encoded, as the browser and
 * the CLI send it), made safe; a 400 naming the header when its encoding is broken or it
 * names no file. Without the header, undefined (the name may come as ?fileName=).
 */
export function fileNameFromHeader(header: string | null): string | undefined {
  if (header === null || header === "") return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(header);
  } catch {
    throw badHeader(
      "x-file-name is not valid percent-encoding (a % must be followed by two hex digits forming UTF-8): send encodeURIComponent(name)",
    );
  }
  const safe = SafeFileNameSchema.safeParse(decoded);
  if (!safe.success) throw badHeader(`x-file-name ${safe.error.issues[0].message}`);
  return safe.data;
}

/**
 * Stores the body and enqueues its import; resolves with the QUEUED batch once every byte
 * is stored. Over the size cap (declared or counted) it answers 413 and keeps nothing but
 * the failed batch's reason.
 */
export async function startUploadImport(
  db: PrismaClient,
  body: ReadableStream<Uint8Array> | null,
  input: UploadOptions & { actorId: string | null; bytesTotal?: number | null; maxBytes?: number },
) {
  if (!body) throw new AppError("BAD_REQUEST", "The request has no body: send the file's bytes as the body");
  const options = UploadOptionsSchema.parse(input);
  const max = input.maxBytes ?? maxUploadBytes();
  if (input.bytesTotal && input.bytesTotal > max) throw uploadTooLarge(max);
  const { source, generator, instanceId } = options;
  const batch = await createImportBatch(db, {
    fileName: options.fileName,
    bytesTotal: input.bytesTotal,
    actorId: input.actorId,
    options: { source, generator, instanceId },
  });
  let stored: number;
  try {
    stored = await storeChunks(db, batch.id, body, max);
  } catch (error) {
    const refused =
      error instanceof AppError
        ? error
        : new AppError("BAD_REQUEST", `The upload was interrupted: ${(error as Error).message}; nothing was stored`);
    await db.$transaction([
      db.importUploadChunk.deleteMany({ where: { batchId: batch.id } }),
      db.importBatch.update({
        where: { id: batch.id },
        data: { status: "FAILED", errorMessage: refused.message, finishedAt: new Date() },
      }),
    ]);
    throw refused;
  }
  return db.$transaction(async (tx) => {
    const { count } = await tx.importBatch.updateMany({
      where: { id: batch.id, status: "QUEUED" },
      data: { bytesTotal: stored, heartbeatAt: null },
    });
    // cancelled while the bytes arrived: keep nothing
    if (count) await enqueueImportJob(tx, batch.id);
    else await tx.importUploadChunk.deleteMany({ where: { batchId: batch.id } });
    return tx.importBatch.findUniqueOrThrow({ where: { id: batch.id } });
  });
}
