import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import tar from "tar-stream";
import yazl from "yazl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { startTestWorker, waitFor, IN_PROCESS_IMPORT_LEASE } from "../helpers/worker";
import { createApiToken } from "@/lib/auth/api-tokens";
import { importFile } from "@/lib/imports/import-file";
import type { WorkerRunner } from "@/workers/runner";

// Attacks on what an upload and a request may cost: a zip bomb, a tar bomb, a pax-header
// bomb, a path nested past the cap, an upload over its cap (declared and streamed), and one
// user opening live logs without end. Each is refused with
// a clear 413 / 422 / 429 (or a FAILED batch saying why) and leaves nothing half-written.

const UPLOAD_CAP = 8 * 1024 * 1024;
process.env.SWE_CURATOR_MAX_UPLOAD_BYTES = String(UPLOAD_CAP);
const imports = await import("@/app/api/v1/imports/route");
const oneImport = await import("@/app/api/v1/imports/[id]/route");
const buildLog = await import("@/app/api/v1/builds/[id]/log/route");

const BASE = "http://localhost/api/v1";
const ROOT = path.resolve(import.meta.dirname, "../..");
const MB = 1024 * 1024;

/** An environment folder's metadata, so the archive would import if it were not a bomb. */
const metadata = JSON.stringify({
  repo: "attacker/bomb",
  instance_id: "attacker__bomb-1",
  base_commit: "0".repeat(40),
  problem_statement: "x",
});
const zeros = (bytes: number) =>
  Readable.from(
    (function* () {
      const block = Buffer.alloc(MB);
      for (let left = bytes; left > 0; left -= MB) yield left >= MB ? block : block.subarray(0, left);
    })(),
  );

async function zipFile(file: string, entries: Array<{ name: string; body: Buffer | Readable }>) {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (Buffer.isBuffer(entry.body)) zip.addBuffer(entry.body, entry.name);
    else zip.addReadStream(entry.body, entry.name);
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}

async function tarGzFile(file: string, entries: Array<{ name: string; size: number; body: Buffer | Readable }>) {
  const pack = tar.pack();
  const written = pipeline(pack, createGzip({ level: 9 }), createWriteStream(file));
  for (const entry of entries) {
    await new Promise<void>((resolve, reject) => {
      const sink = pack.entry({ name: entry.name, size: entry.size }, (error) => (error ? reject(error) : resolve()));
      if (Buffer.isBuffer(entry.body)) sink.end(entry.body);
      else entry.body.pipe(sink);
    });
  }
  pack.finalize();
  await written;
}

describe("caps on uploads, archives, bodies and live logs", () => {
  let db: TestDatabase;
  let dir: string;
  let token: string;
  let worker: WorkerRunner;
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), "upload-caps-"));
    const curator = await db.prisma.user.create({ data: { email: "curator@example.com", role: "CURATOR" } });
    token = (await createApiToken(db.prisma, curator.id, { name: "t" })).token;
    worker = await startTestWorker(db.url, { concurrency: 1, config: IN_PROCESS_IMPORT_LEASE });
  });
  afterAll(async () => {
    await worker?.stop();
    rmSync(dir, { recursive: true, force: true });
    await db?.drop();
  });

  const auth = () => ({ authorization: `Bearer ${token}` });
  const upload = (name: string, body: ReadableStream | Buffer, headers: Record<string, string> = {}) =>
    imports.POST(
      new Request(`${BASE}/imports`, {
        method: "POST",
        headers: { ...auth(), "x-file-name": name, "content-type": "application/octet-stream", ...headers },
        body,
        duplex: "half",
      } as RequestInit),
    );
  const uploadFile = (file: string) =>
    upload(path.basename(file), Readable.toWeb(createReadStream(file)) as ReadableStream, {
      "content-length": String(statSync(file).size),
    });

  async function finished(response: Response) {
    expect(response.status).toBe(202);
    const { id } = await response.json();
    return waitFor(`import ${id} to finish`, async () => {
      const batch = await (
        await oneImport.GET(new Request(`${BASE}/imports/${id}`, { headers: auth() }), {
          params: Promise.resolve({ id }),
        })
      ).json();
      return batch.status === "QUEUED" || batch.status === "RUNNING" ? null : batch;
    });
  }

  async function expectNothingWritten(batchId: string) {
    expect(await db.prisma.task.count({ where: { instanceId: { startsWith: "attacker__" } } })).toBe(0);
    expect(await db.prisma.environment.count({ where: { key: { startsWith: "attacker" } } })).toBe(0);
    expect(await db.prisma.importUploadChunk.count({ where: { batchId } })).toBe(0);
  }

  it("refuses a zip bomb from its directory, before writing a byte", async () => {
    const file = path.join(dir, "bomb.zip");
    await zipFile(file, [
      { name: "bomb/metadata.json", body: Buffer.from(metadata) },
      { name: "bomb/Dockerfile", body: Buffer.from("FROM scratch\n") },
      { name: "bomb/eval.sh", body: Buffer.from("true\n") },
      { name: "bomb/zeros.bin", body: zeros(256 * MB) },
    ]);
    expect(statSync(file).size).toBeLessThan(2 * MB);
    const batch = await finished(await uploadFile(file));
    expect(batch).toMatchObject({
      status: "FAILED",
      created: 0,
      errorMessage: expect.stringMatching(/archive was refused: it expands more than 200× .*nothing was imported/),
    });
    await expectNothingWritten(batch.id);
  });

  it("stops inflating a tar bomb within its first megabytes", async () => {
    const file = path.join(dir, "bomb.tar.gz");
    await tarGzFile(file, [
      { name: "bomb/metadata.json", size: metadata.length, body: Buffer.from(metadata) },
      { name: "bomb/zeros.bin", size: 256 * MB, body: zeros(256 * MB) },
    ]);
    const batch = await finished(await uploadFile(file));
    expect(batch).toMatchObject({ status: "FAILED", created: 0 });
    const [, unpacked] = /expands more than 200× \(([\d.]+) MB unpacked/.exec(batch.errorMessage) ?? [];
    // refused at the ratio cap's 16 MB grace, not after all 256 MB (or the 2 GB total cap)
    expect(Number(unpacked)).toBeLessThan(32);
    await expectNothingWritten(batch.id);
  });

  it("refuses a pax header bomb and a path nested past the cap", async () => {
    const pax = path.join(dir, "pax.tar.gz");
    await tarGzFile(pax, [{ name: `bomb/${"a".repeat(200_000)}.json`, size: 2, body: Buffer.from("{}") }]);
    expect(await importFile(db.prisma, pax)).toMatchObject({
      status: "FAILED",
      errorMessage: expect.stringMatching(/headers of the entry bomb\/aaa.* are larger than 64\.0 KB/),
    });
    const deep = path.join(dir, "deep.zip");
    await zipFile(deep, [
      { name: `${Array.from({ length: 40 }, (_, i) => `d${i}`).join("/")}/x.json`, body: Buffer.from("{}") },
    ]);
    expect(await importFile(db.prisma, deep)).toMatchObject({
      status: "FAILED",
      errorMessage: expect.stringMatching(/nested 41 folders deep \(the limit is 32\)/),
    });
  });

  it("answers 413 to an upload over its cap, declared or streamed, and keeps none of its bytes", async () => {
    const before = await db.prisma.importBatch.count();
    const declared = await upload("big.jsonl", Buffer.alloc(UPLOAD_CAP + 1, "x"), {
      "content-length": String(UPLOAD_CAP + 1),
    });
    expect(declared.status).toBe(413);
    expect((await declared.json()).detail).toMatch(/larger than the 8\.0 MB limit/);
    expect(await db.prisma.importBatch.count()).toBe(before);

    const streamed = await upload("big.jsonl", Readable.toWeb(zeros(UPLOAD_CAP + MB)) as ReadableStream);
    expect(streamed.status).toBe(413);
    const refused = await db.prisma.importBatch.findFirstOrThrow({ where: { fileName: "big.jsonl" } });
    expect(refused).toMatchObject({
      status: "FAILED",
      errorMessage: expect.stringMatching(/larger than the 8\.0 MB limit.*nothing was stored/),
    });
    expect(await db.prisma.importUploadChunk.count({ where: { batchId: refused.id } })).toBe(0);
  });

  it("caps the live logs one user holds open", async () => {
    await importFile(db.prisma, path.join(ROOT, "test/fixtures/swe-bench/swe-bench-lite-test.json"));
    const revision = await db.prisma.environmentRevision.findFirstOrThrow();
    const build = await db.prisma.build.create({ data: { revisionId: revision.id } });
    const open = () =>
      buildLog.GET(new Request(`${BASE}/builds/${build.id}/log`, { headers: auth() }), {
        params: Promise.resolve({ id: build.id }),
      });
    const streams = [];
    for (let i = 0; i < 8; i++) streams.push(await open());
    expect(streams.map((s) => s.status)).toEqual(Array(8).fill(200));
    const refused = await open();
    expect(refused.status).toBe(429);
    expect((await refused.json()).detail).toMatch(/already have 8 live logs open/);
    await streams[0].body!.cancel();
    const again = await open();
    expect(again.status).toBe(200);
    for (const stream of [...streams.slice(1), again]) await stream.body!.cancel();
  });
});
