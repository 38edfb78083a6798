import { createReadStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll } from "vitest";
import type { PrismaClient } from "../../lib/db/client";
import * as imports from "../../app/api/v1/imports/route";
import * as oneImport from "../../app/api/v1/imports/[id]/route";
import { createApiToken } from "../../lib/auth/api-tokens";
import type { WorkerRunner } from "../../workers/runner";
import { createTestDatabase, type TestDatabase } from "./database";
import { startTestWorker, waitFor, IN_PROCESS_IMPORT_LEASE } from "./worker";

/** Waits until an import batch has left QUEUED and RUNNING; returns the settled row. */
export function waitForImport(db: PrismaClient, batchId: string, timeoutMs = 120_000) {
  return waitFor(
    `import ${batchId} to settle`,
    async () => {
      const row = await db.importBatch.findUniqueOrThrow({ where: { id: batchId } });
      return row.status === "QUEUED" || row.status === "RUNNING" ? null : row;
    },
    timeoutMs,
  );
}

/**
 * Uploads a file as the /imports page does — POST /api/v1/imports with the file as a streamed
 * body — then polls GET /api/v1/imports/:id until a worker has imported it; returns that report.
 * A worker must be running (startTestWorker).
 */
export async function uploadThroughApi(file: string, token: string, query = "") {
  const response = await imports.POST(
    new Request(`http://localhost/api/v1/imports${query}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "x-file-name": encodeURIComponent(path.basename(file)),
        "content-type": "application/octet-stream",
        origin: "http://localhost",
      },
      body: Readable.toWeb(createReadStream(file)) as ReadableStream,
      duplex: "half",
    } as RequestInit),
  );
  if (response.status !== 202) throw new Error(`the upload answered ${response.status}: ${await response.text()}`);
  const { id } = await response.json();
  return waitFor(
    `the upload of ${path.basename(file)} to be imported`,
    async () => {
      const report = await oneImport.GET(
        new Request(`http://localhost/api/v1/imports/${id}`, { headers: { authorization: `Bearer ${token}` } }),
        { params: Promise.resolve({ id }) },
      );
      const batch = await report.json();
      return batch.status === "RUNNING" || batch.status === "QUEUED" ? null : batch;
    },
    120_000,
  );
}

export type ImportTestBed = { db: TestDatabase; env: Record<string, string>; token: string; dir: string };

/**
 * For a describe block that imports real files by both entry points: a database, a worker
 * (uploads are imported by the queue, as on a running product), a curator's API token, the
 * CLI's environment and a scratch folder; all removed after the block.
 */
export function importTestBed(prefix: string): ImportTestBed {
  const bed = {} as ImportTestBed;
  let worker: WorkerRunner | undefined;
  beforeAll(async () => {
    bed.db = await createTestDatabase();
    worker = await startTestWorker(bed.db.url, { config: IN_PROCESS_IMPORT_LEASE });
    bed.env = { DATABASE_URL: bed.db.url };
    bed.dir = mkdtempSync(path.join(tmpdir(), prefix));
    const curator = await bed.db.prisma.user.create({ data: { email: "c@example.com", role: "CURATOR" } });
    bed.token = (await createApiToken(bed.db.prisma, curator.id, { name: "t" })).token;
  });
  afterAll(async () => {
    await worker?.stop();
    if (bed.dir) rmSync(bed.dir, { recursive: true, force: true });
    await bed.db?.drop();
  });
  return bed;
}
