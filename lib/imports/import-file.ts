import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { PrismaClient } from "../db/client";
import type { ImportBatch } from "../db/client";
import { classifyRecordKeys, detectFile, type Detection } from "./formats/detect-format";
import { ImportRun, ImportStopped } from "./import-run";
import { describeError, importRecords } from "./import-records";
import { readJsonRecords } from "./read/json-records";
import { openParquet, readParquetRecords } from "./read/parquet-records";
import { recordImporterFor, documentImporterFor } from "./importers";
import type { ImportContext, ImportOptions } from "./import-context";

// The one entry point for importing a file from disk (the CLI, the seed, and uploads
// after they are spooled to a temporary file all come through here): detect the format
// from the first bytes, stream the file through that format's importer, and account for
// every record in an ImportBatch.

export async function sha256File(filePath: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(filePath, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function countingStream(filePath: string, run: ImportRun): Readable {
  async function* counted() {
    for await (const chunk of createReadStream(filePath, { highWaterMark: 1 << 20 })) {
      run.bytesRead += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  }
  return Readable.from(counted(), { objectMode: false });
}

async function runDetected(ctx: ImportContext, detection: Detection) {
  const { run } = ctx;
  if (detection.kind === "unknown") {
    await run.setFormat("UNKNOWN");
    return { errorMessage: `Unrecognised file: ${detection.reason}` };
  }
  if (detection.kind === "records") {
    if (run.format === "UNKNOWN") await run.setFormat(detection.format);
    const importer = recordImporterFor(detection.format, ctx);
    const raws = readJsonRecords(ctx.openStream(), {
      layout: detection.layout,
      maxRecordBytes: ctx.options.maxRecordBytes,
    });
    await importRecords(ctx.db, raws, importer, run, { resumable: !ctx.nested });
    return {};
  }
  if (detection.kind === "parquet") return runParquet(ctx);
  const importer = documentImporterFor(detection);
  if (run.format === "UNKNOWN") await run.setFormat(importer.format);
  await importer.run(ctx);
  return {};
}

/** Parquet rows go through the same record importers as JSONL; the columns decide which. */
async function runParquet(ctx: ImportContext) {
  const source = await openParquet(ctx.filePath);
  const format = classifyRecordKeys(new Set(source.columns));
  if (!format)
    return {
      errorMessage: `Unrecognised file: a Parquet file whose columns match no known format (its columns: ${source.columns.slice(0, 12).join(", ") || "none"})`,
    };
  if (ctx.run.format === "UNKNOWN") await ctx.run.setFormat(format);
  const startRow = ctx.nested ? 0 : ctx.run.resumeAfter;
  const run = ctx.run;
  // row groups are read by offset, not streamed: progress is the share of rows done
  async function* counted() {
    for await (const row of readParquetRecords(source, startRow)) {
      run.bytesRead = Math.round((source.file.byteLength * row.through) / Math.max(source.rows, 1));
      yield row;
    }
  }
  await importRecords(ctx.db, counted(), recordImporterFor(format, ctx), run, { resumable: !ctx.nested });
  return {};
}

function makeContext(
  db: PrismaClient,
  filePath: string,
  fileName: string,
  options: ImportOptions,
  run: ImportRun,
  nested = false,
): ImportContext {
  return {
    db,
    nested,
    filePath,
    fileName,
    options,
    run,
    openStream: () => countingStream(filePath, run),
    sha256: () => sha256File(filePath),
    async importNested(nestedPath, nestedName) {
      const nested = makeContext(db, nestedPath, nestedName, options, run, true);
      try {
        const detection = await detectFile(nestedPath, nestedName);
        if (detection.kind === "unknown")
          return run.fail({ line: null, key: nestedName, reason: `Unrecognised file: ${detection.reason}` });
        if (detection.kind === "archive")
          return run.fail({
            line: null,
            key: nestedName,
            reason: "archives inside archives are not imported; unpack it first",
          });
        const outcome =
          detection.kind === "records" ? await runRecords(nested, detection) : await runDetected(nested, detection);
        if (outcome.errorMessage) run.fail({ line: null, key: nestedName, reason: outcome.errorMessage });
      } catch (error) {
        if (error instanceof ImportStopped) throw error;
        run.fail({ line: null, key: nestedName, reason: describeError(error) });
      }
    },
  };
}

/** Records inside a folder keep their file in the error's key, so "line 12" says of which file. */
async function runRecords(ctx: ImportContext, detection: Extract<Detection, { kind: "records" }>) {
  const before = ctx.run.errors.length;
  const outcome = await runDetected(ctx, detection);
  for (const error of ctx.run.errors.slice(before))
    error.key = error.key ? `${ctx.fileName}: ${error.key}` : ctx.fileName;
  return outcome;
}

/**
 * Imports a file into a batch and returns the finished batch. Throws ImportStopped when the
 * process lost the batch's lease or is shutting down: the batch is then someone else's to finish.
 */
export async function importFile(
  db: PrismaClient,
  filePath: string,
  options: ImportOptions = {},
): Promise<ImportBatch> {
  const info = await stat(filePath);
  const fileName = options.fileName ?? path.basename(filePath);
  const run = await ImportRun.start(db, {
    fileName,
    bytesTotal: info.isFile() ? info.size : null,
    actorId: options.actorId,
    batchId: options.batchId,
    onProgress: options.onProgress,
    lease: options.lease,
  });
  const ctx = makeContext(db, filePath, fileName, options, run);
  try {
    const detection: Detection = info.isDirectory()
      ? { kind: "archive", archive: "directory" }
      : await detectFile(filePath, fileName);
    const outcome = await runDetected(ctx, detection);
    run.bytesRead = info.isFile() ? info.size : run.bytesRead;
    return await run.finish(outcome);
  } catch (error) {
    if (error instanceof ImportStopped && error.why !== "cancelled") {
      run.release();
      throw error;
    }
    if (error instanceof ImportStopped)
      return run.finish({
        status: "CANCELLED",
        errorMessage: "Cancelled; the records written before the cancel are kept",
      });
    return run.finish({ errorMessage: describeError(error) });
  }
}
