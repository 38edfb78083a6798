import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { startTestWorker, waitFor, IMPORT_RECOVERY_LEASE } from "../helpers/worker";
import { waitForImport } from "../helpers/imports";
import type { WorkerRunner } from "@/workers/runner";

// The web process only stores an upload and enqueues it. Killed right after answering, the
// import still finishes on the worker; killed mid-upload, the batch fails with a sentence
// saying so, nothing is imported and none of the partial bytes are kept.

const ROOT = path.resolve(import.meta.dirname, "../..");
const lite = JSON.parse(
  readFileSync(path.join(ROOT, "test/fixtures/swe-bench/swe-bench-lite-test.json"), "utf8"),
) as Record<string, unknown>[];
const records = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) =>
    JSON.stringify({ ...lite[i % lite.length], instance_id: `${prefix}__row-${i}` }),
  ).join("\n") + "\n";

async function startWebProcess(databaseUrl: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/upload-web-process.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      const match = /listening (\d+)/.exec(String(chunk));
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`the web process exited (${code})`)));
  });
  return { child, port };
}

async function kill(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

const finished = (db: TestDatabase, id: string) => waitForImport(db.prisma, id);

describe("a web restart during an import", () => {
  let db: TestDatabase;
  let worker: WorkerRunner;
  beforeAll(async () => {
    db = await createTestDatabase();
    worker = await startTestWorker(db.url, { concurrency: 1, config: IMPORT_RECOVERY_LEASE });
  });
  afterAll(async () => {
    await worker?.stop();
    await db?.drop();
  });

  it("finishes on the worker when the web process dies mid-import", async () => {
    const web = await startWebProcess(db.url);
    const body = records("restart", 1500);
    const answer = await new Promise<{ id: string; status: string }>((resolve, reject) => {
      const request = http.request(
        { host: "127.0.0.1", port: web.port, path: "/upload?fileName=restart.jsonl", method: "POST" },
        (response) => {
          let text = "";
          response.on("data", (chunk) => (text += chunk));
          response.on("end", () => resolve(JSON.parse(text)));
        },
      );
      request.on("error", reject);
      request.end(body);
    });
    expect(answer.status).toBe("QUEUED");
    await waitFor(
      "the worker to be importing it",
      async () => (await db.prisma.importBatch.findUniqueOrThrow({ where: { id: answer.id } })).status === "RUNNING",
      60_000,
      50,
    );
    await kill(web.child);
    const batch = await finished(db, answer.id);
    expect(batch).toMatchObject({ status: "SUCCEEDED", created: 1500, failed: 0 });
    expect(await db.prisma.task.count({ where: { instanceId: { startsWith: "restart__" } } })).toBe(1500);
  });

  it("fails the batch with a readable reason when the web process dies mid-upload, keeping no bytes", async () => {
    const web = await startWebProcess(db.url);
    const request = http.request({
      host: "127.0.0.1",
      port: web.port,
      path: "/upload?fileName=cut.jsonl",
      method: "POST",
    });
    request.on("error", () => {});
    request.write(records("cut", 1000)); // ~11 MB: some chunks are stored, the rest never comes
    const batch = await waitFor("stored chunks of the half upload", async () => {
      const row = await db.prisma.importBatch.findFirst({
        where: { fileName: "cut.jsonl" },
        include: { _count: { select: { uploadChunks: true } } },
      });
      return row && row._count.uploadChunks > 0 ? row : null;
    });
    await kill(web.child);
    request.destroy();
    // the worker's lease recovery (every leaseMs / 2, 3 s in tests) settles it
    const settled = await finished(db, batch.id);
    expect(settled).toMatchObject({
      status: "FAILED",
      created: 0,
      errorMessage: expect.stringMatching(
        /upload stopped before all its bytes arrived.*nothing was imported — upload the file again/,
      ),
    });
    expect(await db.prisma.importUploadChunk.count({ where: { batchId: batch.id } })).toBe(0);
    expect(await db.prisma.task.count({ where: { instanceId: { startsWith: "cut__" } } })).toBe(0);
  });
});
