import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { spawnWorkerProcess, stopProcess, waitFor } from "../helpers/worker";
import { createApiToken } from "@/lib/auth/api-tokens";
import { createImportBatch } from "@/lib/imports/import-batches";
import { enqueueImportJob } from "@/lib/imports/import-lease";
import { runImportJob } from "@/lib/imports/import-job";
import { workerConfigFromEnv } from "@/lib/worker-runtime/worker-config";

// Issue 27, item 2: an upload named ".." made the worker join the name into a path, open a
// write stream on a directory and die of the stream's unhandled error (twice per upload, as
// the job was retried); a badly percent-encoded name answered 500 with a URIError. Here the
// attack as sent, and a fuzz of names, headers and bodies through the route and the job.

// the job's scratch folders live under os.tmpdir(): a sandbox of this file's own, so
// "nothing written outside the import folder" can be checked by listing it
const SANDBOX = mkdtempSync(path.join(tmpdir(), "upload-fuzz-"));
const SCRATCH = path.join(SANDBOX, "tmp");
mkdirSync(SCRATCH);
// os.tmpdir() reads TMPDIR on every call (and the worker process inherits it)
process.env.TMPDIR = SCRATCH;
const imports = await import("@/app/api/v1/imports/route");

const BASE = "http://localhost/api/v1";
const INSTANCES = readFileSync(path.resolve(import.meta.dirname, "../fixtures/swe-bench/swe-bench-lite-test.json"));
const TERMINAL = ["SUCCEEDED", "FAILED", "CANCELLED"];

let db: TestDatabase;
let token: string;
beforeAll(async () => {
  db = await createTestDatabase();
  const curator = await db.prisma.user.create({ data: { email: "uploader@example.com", role: "CURATOR" } });
  token = (await createApiToken(db.prisma, curator.id, { name: "t" })).token;
});
afterAll(async () => {
  rmSync(SANDBOX, { recursive: true, force: true });
  await db?.drop();
});

const upload = (headers: Record<string, string>, body: Uint8Array, query = "") =>
  imports.POST(
    new Request(`${BASE}/imports${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream", ...headers },
      body: body as Uint8Array<ArrayBuffer>,
    }),
  );

/** A batch stored the way an upload stores it, before names were checked: the worker must cope with any name already in the table. */
async function storedUpload(fileName: string, bytes: Buffer) {
  const batch = await createImportBatch(db.prisma, { fileName, bytesTotal: bytes.length, actorId: null, options: {} });
  await db.prisma.importUploadChunk.create({ data: { batchId: batch.id, seq: 0, data: new Uint8Array(bytes) } });
  await db.prisma.$transaction(async (tx) => {
    await tx.importBatch.update({ where: { id: batch.id }, data: { heartbeatAt: null } });
    await enqueueImportJob(tx, batch.id);
  });
  return batch.id;
}

describe("the original attack: x-file-name ..", () => {
  it("the upload route refuses it, and a bad percent-encoding, with a 400 problem naming the header", async () => {
    for (const name of ["..", ".", "%2E%2E", "%E0%A4%A", "%", "%C0%AF"]) {
      const response = await upload({ "x-file-name": name }, INSTANCES);
      expect(response.status, name).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/application\/problem\+json/);
      const problem = await response.json();
      expect(problem.errors?.[0], name).toMatchObject({ field: "x-file-name", in: "header" });
      expect(problem.detail, name).not.toMatch(/URIError|at .*\.ts:\d+/);
    }
    expect(await db.prisma.importBatch.count()).toBe(0);
  });

  it("a real worker process imports a batch stored as .. and stays alive", async () => {
    const batchId = await storedUpload("..", INSTANCES);
    const worker = spawnWorkerProcess(db.url);
    try {
      const batch = await waitFor(`import ${batchId} to finish`, async () => {
        if (worker.child.exitCode !== null || worker.child.signalCode !== null)
          throw new Error(`the worker process died:\n${worker.output().slice(-2000)}`);
        const row = await db.prisma.importBatch.findUniqueOrThrow({ where: { id: batchId } });
        return TERMINAL.includes(row.status) ? row : null;
      });
      expect(batch).toMatchObject({ status: "SUCCEEDED", fileName: "..", errorMessage: null });
      expect(batch.created).toBeGreaterThan(0);
      expect(worker.child.exitCode).toBeNull();
      expect(worker.child.signalCode).toBeNull();
    } finally {
      await stopProcess(worker.child);
    }
  });
});

/** Every file and folder under `dir`, relative to it. */
const listTree = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();

describe("fuzz: any name, header and body", () => {
  it("answers 202 or a 4xx problem; each job imports or fails with a sentence; nothing lands outside its folder; the process lives on", async () => {
    const crashes: unknown[] = [];
    const onCrash = (error: unknown) => crashes.push(error);
    process.on("uncaughtException", onCrash);
    process.on("unhandledRejection", onCrash);
    const ctx = {
      db: db.prisma,
      workerId: "fuzz-worker",
      config: workerConfigFromEnv(),
      shutdownSignal: new AbortController().signal,
      running: new Set<string>(),
    };
    const sandboxBefore = listTree(SANDBOX);

    const nasty = fc.constantFrom(
      "..",
      ".",
      "/",
      "\\",
      "../../etc/passwd",
      "..\\..\\x",
      "a\u0000b",
      "\u0000",
      "%00",
      "%2e%2e",
      "%2F..%2F",
      "%",
      "%E0%A4%A",
      "%ED%A0%80",
      "%C0%AF",
      "\u202Egnp.jsonl",
      "名前.jsonl",
      "🦀.json",
      "CON",
      " ",
    );
    const names = fc.oneof(
      nasty,
      fc.string({ maxLength: 40 }),
      fc.string({ unit: "binary", maxLength: 20 }).map(encodeURIComponent),
      fc.string({ minLength: 250, maxLength: 400 }).map(encodeURIComponent),
    );
    const bodies = fc.oneof(
      fc.constant(new Uint8Array(INSTANCES)),
      fc.uint8Array({ maxLength: 2048 }),
      fc.json().map((text) => new TextEncoder().encode(text)),
      fc.constant(new Uint8Array(0)),
    );
    const queries = fc.oneof(
      fc.constant(""),
      fc.constant("?generator=a%00b&instanceId=%E2%80%AE%00"),
      fc
        .string({ unit: "binary", maxLength: 30 })
        .map((value) => `?${new URLSearchParams({ generator: value, instanceId: value })}`),
    );

    await fc.assert(
      fc.asyncProperty(names, bodies, queries, async (name, body, query) => {
        // a header value must be a ByteString: what fetch cannot send, no client can
        const headerSafe = /^[\t\x20-\x7e\x80-\xff]*$/.test(name);
        const response = await upload(
          headerSafe ? { "x-file-name": name } : {},
          body,
          headerSafe ? query : `?${new URLSearchParams({ fileName: name })}`,
        );
        expect([202, 400, 413, 422], `status for ${JSON.stringify(name)}`).toContain(response.status);
        const answer = await response.json();
        if (response.status !== 202) {
          expect(response.headers.get("content-type")).toMatch(/problem\+json/);
          expect(answer.detail).toMatch(/\w+ .*\w/);
          return;
        }
        await runImportJob(ctx, answer.id);
        const batch = await db.prisma.importBatch.findUniqueOrThrow({ where: { id: answer.id } });
        expect(TERMINAL, `batch ${JSON.stringify(name)}`).toContain(batch.status);
        if (batch.status !== "SUCCEEDED")
          expect(batch.errorMessage, `reason for ${JSON.stringify(name)}`).toMatch(/^[A-Z].{10,}/);
        if (batch.errorMessage) expect(batch.errorMessage).not.toMatch(/\n\s+at |EISDIR|ENOENT/);
        expect(listTree(SANDBOX), "the job left files behind or wrote outside its folder").toEqual(sandboxBefore);
      }),
      { numRuns: 60 },
    );
    process.off("uncaughtException", onCrash);
    process.off("unhandledRejection", onCrash);
    expect(crashes).toEqual([]);
  });
});
