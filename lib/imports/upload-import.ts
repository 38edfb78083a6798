import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import type { PrismaClient } from "../db/client";
import { TaskSource } from "../db/enums";
import { AppError } from "../errors/app-error";
import { importFile } from "./import-file";

// An upload from the browser or the CLI: the request body is streamed to a temporary
// file (never held in memory — archives need random access and a re-read for hashing),
// then imported in the background while the caller polls the ImportBatch.

export const MAX_UPLOAD_BYTES = Number(process.env.SWE_CURATOR_MAX_UPLOAD_BYTES ?? 20 * 1024 ** 3);

export const UploadOptionsSchema = z.object({
  fileName: z
    .string()
    .trim()
    .min(1, "name the file (x-file-name header or ?fileName=)")
    .max(300)
    .transform((name) => name.replace(/[\\/]/g, "_")),
  source: z.enum(TaskSource).optional(),
  generator: z.string().trim().min(1).max(300).optional(),
  instanceId: z.string().trim().min(1).max(300).optional(),
});
export type UploadOptions = z.input<typeof UploadOptionsSchema>;

function limitBytes(max: number) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) done(new AppError("UNPROCESSABLE", `The upload is larger than the ${Math.round(max / 1024 ** 3)} GB limit`));
      else done(null, chunk);
    },
  });
}

/** Spools the body and starts the import; resolves with the batch once every byte has arrived. */
export async function startUploadImport(db: PrismaClient, body: ReadableStream<Uint8Array> | null, input: UploadOptions & { actorId: string | null; bytesTotal?: number | null }) {
  if (!body) throw new AppError("BAD_REQUEST", "The request has no body: send the file's bytes as the body");
  const options = UploadOptionsSchema.parse(input);
  const dir = await mkdtemp(path.join(tmpdir(), "swe-curator-upload-"));
  const filePath = path.join(dir, options.fileName);
  const batch = await db.importBatch.create({ data: { fileName: options.fileName, bytesTotal: input.bytesTotal ?? null, userId: input.actorId } });
  try {
    await pipeline(Readable.fromWeb(body as import("node:stream/web").ReadableStream), limitBytes(MAX_UPLOAD_BYTES), createWriteStream(filePath));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const message = error instanceof AppError ? error.message : `The upload was interrupted: ${(error as Error).message}`;
    await db.importBatch.update({ where: { id: batch.id }, data: { status: "FAILED", errorMessage: message, finishedAt: new Date() } });
    throw error instanceof AppError ? error : new AppError("BAD_REQUEST", message);
  }
  // the import outlives the request; its progress and outcome live on the batch row
  void importFile(db, filePath, { batchId: batch.id, fileName: options.fileName, actorId: input.actorId, source: options.source, generator: options.generator, instanceId: options.instanceId })
    .catch((error) => console.error("[imports] background import failed", batch.id, error))
    .finally(() => rm(dir, { recursive: true, force: true }));
  return db.importBatch.findUniqueOrThrow({ where: { id: batch.id } });
}
