import { createReadStream, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { PrismaClient, TaskSource } from "../../db/client";
import { importFile } from "../../imports/import-file";
import { api, type Connection } from "../connection";
import { CliError, EXIT, type ExitCode } from "../exit-codes";
import { Progress } from "../progress";
import { countsText, recordErrors, recordErrorText, type BatchView } from "../batch-view";
import { logFailure } from "../../errors/log-failure";

export type ImportFlags = { source?: TaskSource; generator?: string; instance?: string; json: boolean };

type ImportedBatch = BatchView & {
  bytesRead: number | bigint;
  bytesTotal: number | bigint | null;
  summary?: string | null;
};

const EXIT_BY_STATUS: Record<string, ExitCode> = {
  SUCCEEDED: EXIT.OK,
  PARTIAL: EXIT.PARTIAL,
  FAILED: EXIT.FAILED,
  CANCELLED: EXIT.INTERRUPTED,
  RUNNING: EXIT.FAILED,
  QUEUED: EXIT.FAILED,
};

function report(batch: ImportedBatch, flags: ImportFlags) {
  if (flags.json) {
    process.stdout.write(
      JSON.stringify({
        id: batch.id,
        fileName: batch.fileName,
        format: batch.format,
        status: batch.status,
        created: batch.created,
        updated: batch.updated,
        unchanged: batch.unchanged,
        failed: batch.failed,
        errorMessage: batch.errorMessage,
        summary: batch.summary ?? null,
        errors: batch.errors ?? [],
      }) + "\n",
    );
  } else {
    process.stdout.write(
      `${batch.fileName}\t${batch.status}\t${batch.format}\t${countsText(batch)}\tbatch=${batch.id}\n`,
    );
  }
  if (batch.summary) process.stderr.write(`  ${batch.summary}\n`);
  if (batch.errorMessage) process.stderr.write(`  ${batch.errorMessage}\n`);
  const errors = recordErrors(batch);
  for (const error of errors.slice(0, 20)) process.stderr.write(`  ${recordErrorText(error)}\n`);
  if (errors.length > 20) process.stderr.write(`  … and ${batch.failed - 20} more (swe-curator status ${batch.id})\n`);
  return EXIT_BY_STATUS[batch.status] ?? EXIT.FAILED;
}

/** Ctrl-C asks the running import to cancel at its next batch; a second one quits at once. */
function onInterrupt(cancel: () => Promise<unknown>) {
  let asked = false;
  const handler = () => {
    if (asked) process.exit(EXIT.INTERRUPTED);
    asked = true;
    process.stderr.write("\ncancelling the import at its next batch (Ctrl-C again to quit now)…\n");
    void cancel().catch(
      logFailure("asking the server to cancel the import", { log: (line) => process.stderr.write(`${line}\n`) }),
    );
  };
  process.on("SIGINT", handler);
  return () => process.off("SIGINT", handler);
}

async function importDirect(db: PrismaClient, file: string, flags: ImportFlags): Promise<ImportedBatch> {
  const progress = new Progress();
  const label = path.basename(file);
  const startedAt = Date.now();
  let batchId: string | null = null;
  const stop = onInterrupt(
    async () => batchId && db.importBatch.update({ where: { id: batchId }, data: { cancelRequested: true } }),
  );
  try {
    const batch = await importFile(db, file, {
      fileName: path.relative(process.cwd(), file) || label,
      source: flags.source,
      generator: flags.generator,
      instanceId: flags.instance,
      onProgress: (run) => {
        batchId = run.batchId;
        progress.update({
          label,
          bytesRead: run.bytesRead,
          bytesTotal: statSize(file),
          records: run.total,
          failed: run.counts.failed,
          startedAt,
          steps: run.steps,
        });
      },
    });
    return batch;
  } finally {
    stop();
    progress.done();
  }
}

const statSize = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
};

async function importViaServer(
  connection: Extract<Connection, { mode: "server" }>,
  file: string,
  flags: ImportFlags,
): Promise<ImportedBatch> {
  const size = statSync(file).size;
  const label = path.basename(file);
  const progress = new Progress();
  const startedAt = Date.now();
  let sent = 0;
  const body = Readable.toWeb(
    createReadStream(file, { highWaterMark: 1 << 20 }).on("data", (chunk) => {
      sent += chunk.length;
      progress.update({
        label: `${label} (uploading)`,
        bytesRead: sent,
        bytesTotal: size,
        records: 0,
        failed: 0,
        startedAt,
      });
    }),
  ) as ReadableStream<Uint8Array>;
  const query = new URLSearchParams();
  if (flags.source) query.set("source", flags.source);
  if (flags.generator) query.set("generator", flags.generator);
  if (flags.instance) query.set("instanceId", flags.instance);
  const response = await api(connection, `/api/v1/imports?${query}`, {
    method: "POST",
    body,
    duplex: "half",
    headers: {
      "x-file-name": encodeURIComponent(label),
      "content-type": "application/octet-stream",
      "content-length": String(size),
    },
  });
  let batch = (await response.json()) as ImportedBatch;
  const stop = onInterrupt(() => api(connection, `/api/v1/imports/${batch.id}/cancel`, { method: "POST" }));
  try {
    while (batch.status === "RUNNING" || batch.status === "QUEUED") {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      batch = (await (await api(connection, `/api/v1/imports/${batch.id}`)).json()) as ImportedBatch;
      progress.update({
        label,
        bytesRead: Number(batch.bytesRead),
        bytesTotal: batch.bytesTotal === null ? null : Number(batch.bytesTotal),
        records: batch.created + batch.updated + batch.unchanged + batch.failed,
        failed: batch.failed,
        startedAt,
      });
    }
  } finally {
    stop();
    progress.done();
  }
  return batch;
}

export async function importCommand(
  connection: Connection,
  db: PrismaClient | null,
  files: string[],
  flags: ImportFlags,
): Promise<ExitCode> {
  if (!files.length) throw new CliError("import needs at least one FILE (or folder)", EXIT.USAGE);
  let worst: ExitCode = EXIT.OK;
  for (const file of files) {
    const resolved = path.resolve(file);
    if (statSize(resolved) === null) {
      process.stderr.write(`${file}: no such file or folder\n`);
      worst = Math.max(worst, EXIT.FAILED) as ExitCode;
      continue;
    }
    const batch =
      connection.mode === "server"
        ? await importViaServer(connection, resolved, flags)
        : await importDirect(db!, resolved, flags);
    worst = Math.max(worst, report(batch, flags)) as ExitCode;
    if (batch.status === "CANCELLED") break;
  }
  return worst;
}
