import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { FAST_WORKER_CONFIG, IMPORT_RECOVERY_LEASE, startTestWorker, waitFor } from "../helpers/worker";
import { waitForImport } from "../helpers/imports";
import { startUploadImport } from "@/lib/imports/upload-import";
import { cancelImport } from "@/lib/imports/import-batches";
import { recoverImportLeases } from "@/lib/imports/import-lease";
import type { ImportCheckpoint } from "@/lib/imports/import-run";

// Imports run on the job queue under a lease. A worker SIGKILLed mid-import leaves a
// RUNNING batch; another worker notices the expired lease and resumes at the last
// checkpoint, so every record is counted exactly once. A killed CLI import cannot be
// resumed (its file was on that machine's disk) and is failed with a reason instead.

const ROOT = path.resolve(import.meta.dirname, "../..");
const lite = JSON.parse(
  readFileSync(path.join(ROOT, "test/fixtures/swe-bench/swe-bench-lite-test.json"), "utf8"),
) as Record<string, unknown>[];
const FAST_ENV = {
  WORKER_HEARTBEAT_MS: String(FAST_WORKER_CONFIG.heartbeatMs),
  WORKER_LEASE_MS: String(FAST_WORKER_CONFIG.leaseMs),
};

/** Real SWE-bench Lite rows under new instance ids: enough of them that a kill lands mid-import. */
function manyRecords(prefix: string, count: number) {
  return (
    Array.from({ length: count }, (_, i) =>
      JSON.stringify({ ...lite[i % lite.length], instance_id: `${prefix}__row-${i}` }),
    ).join("\n") + "\n"
  );
}

const spawned: ChildProcess[] = [];
// a spawned worker or CLI compiles its module graph with tsx before its first write: on a machine with
// both cores busy that alone took over 90 s, so the cases that spawn one wait (and may run) longer
const SPAWN_WAIT_MS = 200_000;
const SPAWN_CASE_MS = 330_000;

function spawnTs(script: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...FAST_ENV, ...env },
  });
  child.stdout!.resume();
  child.stderr!.resume();
  spawned.push(child);
  return child;
}

async function kill(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

/**
 * Holds every import at its first checkpoint until `release()`: the next checkpoint's write (inside
 * its batch's transaction) waits on a lock the test holds. Polling for "a checkpoint" then cannot
 * miss one: on a busy machine a poll came late enough that the worker had finished the file and
 * cleared its checkpoint, and the wait ran out. Released, the trigger lets every write through.
 */
async function holdAtFirstCheckpoint(db: TestDatabase): Promise<() => Promise<void>> {
  const holder = new pg.Client({ connectionString: db.url });
  await holder.connect();
  await holder.query("SELECT pg_advisory_lock(4242)");
  await holder.query(`
    CREATE OR REPLACE FUNCTION test_hold_at_checkpoint() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN PERFORM pg_advisory_xact_lock(4242); RETURN NEW; END $$;
    DROP TRIGGER IF EXISTS test_hold_at_checkpoint ON import_batches;
    CREATE TRIGGER test_hold_at_checkpoint BEFORE UPDATE ON import_batches FOR EACH ROW
      WHEN (OLD.checkpoint IS NOT NULL AND NEW.checkpoint IS DISTINCT FROM OLD.checkpoint)
      EXECUTE FUNCTION test_hold_at_checkpoint();`);
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await holder.query("SELECT pg_advisory_unlock(4242)");
    await holder.end();
  };
}

const bodyOf = (text: string) => Readable.toWeb(Readable.from([Buffer.from(text)])) as ReadableStream<Uint8Array>;
const checkpointOf = async (db: TestDatabase, id: string) =>
  (await db.prisma.importBatch.findUniqueOrThrow({ where: { id } })).checkpoint as ImportCheckpoint | null;

describe("imports on the job queue", () => {
  let db: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), "import-queue-"));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db?.drop();
  });
  // a test that failed before its kill must not leave its worker or CLI importing into the next test's batches
  afterEach(async () => {
    for (const child of spawned.splice(0)) await kill(child);
  });

  it(
    "resumes a killed worker's import at its checkpoint and counts every record once",
    async () => {
      // the worker is held at its first checkpoint (500 records, one write batch) and killed there:
      // the other 1500 are left to resume
      const count = 2000;
      const batch = await startUploadImport(db.prisma, bodyOf(manyRecords("crash", count)), {
        fileName: "crash.jsonl",
        actorId: null,
      });
      expect(batch.status).toBe("QUEUED");

      const release = await holdAtFirstCheckpoint(db);
      const doomed = spawnTs("workers/main.ts", [], { DATABASE_URL: db.url, WORKER_CONCURRENCY: "1" });
      const checkpoint = await waitFor(
        "a checkpoint of the first worker",
        () => checkpointOf(db, batch.id),
        SPAWN_WAIT_MS,
        50,
      ).finally(() => kill(doomed).then(release));
      const left = await db.prisma.importBatch.findUniqueOrThrow({ where: { id: batch.id } });
      expect(left.status).toBe("RUNNING");
      expect(checkpoint.records).toBeGreaterThan(0);
      expect(checkpoint.records).toBeLessThan(count);

      const rescuer = await startTestWorker(db.url, { config: IMPORT_RECOVERY_LEASE });
      try {
        const done = await waitForImport(db.prisma, batch.id);
        expect(done).toMatchObject({
          status: "SUCCEEDED",
          created: count,
          unchanged: 0,
          failed: 0,
          attempts: 2,
          errorMessage: null,
          checkpoint: null,
        });
        expect(await db.prisma.task.count({ where: { instanceId: { startsWith: "crash__" } } })).toBe(count);
        expect(await db.prisma.importUploadChunk.count({ where: { batchId: batch.id } })).toBe(0);
      } finally {
        await rescuer.stop();
      }
    },
    SPAWN_CASE_MS,
  );

  it(
    "hands a batch back when its worker shuts down, and the next worker finishes it",
    async () => {
      const count = 2000;
      const batch = await startUploadImport(db.prisma, bodyOf(manyRecords("shutdown", count)), {
        fileName: "shutdown.jsonl",
        actorId: null,
      });
      const release = await holdAtFirstCheckpoint(db);
      const first = await startTestWorker(db.url, { concurrency: 1, config: IMPORT_RECOVERY_LEASE });
      try {
        await waitFor("a checkpoint", () => checkpointOf(db, batch.id), SPAWN_WAIT_MS, 50);
      } finally {
        // the shutdown is asked for before the held write goes on: the import sees it at its next batch
        const stopped = first.stop();
        await release();
        await stopped;
      }
      const handedBack = await db.prisma.importBatch.findUniqueOrThrow({ where: { id: batch.id } });
      expect(handedBack).toMatchObject({
        status: "QUEUED",
        workerId: null,
        errorMessage: expect.stringMatching(/shut down; another worker resumes it/),
      });

      const second = await startTestWorker(db.url, { concurrency: 1, config: IMPORT_RECOVERY_LEASE });
      try {
        const done = await waitForImport(db.prisma, batch.id);
        expect(done).toMatchObject({ status: "SUCCEEDED", created: count, unchanged: 0, attempts: 2 });
      } finally {
        await second.stop();
      }
    },
    SPAWN_CASE_MS,
  );

  it(
    "fails a killed CLI import with a reason, keeping what it wrote",
    async () => {
      const file = path.join(dir, "cli.jsonl");
      writeFileSync(file, manyRecords("cli", 4000));
      const release = await holdAtFirstCheckpoint(db);
      const cli = spawnTs("lib/cli/main.ts", ["import", file], { DATABASE_URL: db.url });
      const running = await waitFor(
        "the CLI's first checkpoint",
        async () => {
          const row = await db.prisma.importBatch.findFirst({ where: { fileName: { endsWith: "cli.jsonl" } } });
          return row?.checkpoint ? row : null;
        },
        SPAWN_WAIT_MS,
        50,
      ).finally(() => kill(cli).then(release));
      expect(running.workerId).toMatch(/in-process$/);

      await waitFor(
        "the CLI's lease to expire",
        async () =>
          (
            await recoverImportLeases(db.prisma, { leaseMs: FAST_WORKER_CONFIG.leaseMs, maxRunAttempts: 2 })
          ).failed.includes(running.id),
        30_000,
        500,
      );
      const failed = await db.prisma.importBatch.findUniqueOrThrow({ where: { id: running.id } });
      expect(failed.status).toBe("FAILED");
      expect(failed.errorMessage).toMatch(
        new RegExp(
          `importer ${running.workerId} stopped responding .*read from that machine's disk.*import the file again`,
        ),
      );
      const written = await db.prisma.task.count({ where: { instanceId: { startsWith: "cli__" } } });
      expect(written).toBeGreaterThanOrEqual((running.checkpoint as ImportCheckpoint).records);
    },
    SPAWN_CASE_MS,
  );

  it("cancels a queued upload at once and drops its stored bytes", async () => {
    const batch = await startUploadImport(db.prisma, bodyOf(manyRecords("queued", 10)), {
      fileName: "queued.jsonl",
      actorId: null,
    });
    expect(await db.prisma.importUploadChunk.count({ where: { batchId: batch.id } })).toBe(1);
    expect(await cancelImport(db.prisma, batch.id, null)).toMatchObject({
      status: "CANCELLED",
      errorMessage: expect.stringMatching(/before it started/),
    });
    expect(await db.prisma.importUploadChunk.count({ where: { batchId: batch.id } })).toBe(0);
    const worker = await startTestWorker(db.url, { concurrency: 1 });
    await worker.stop();
    expect(await db.prisma.task.count({ where: { instanceId: { startsWith: "queued__" } } })).toBe(0);
  });
});
