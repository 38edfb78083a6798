import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { startTestWorker, waitFor } from "../helpers/worker";
import type { WorkerRunner } from "../../workers/runner";
import { createApiToken } from "../../lib/auth/api-tokens";
import * as imports from "../../app/api/v1/imports/route";
import * as oneImport from "../../app/api/v1/imports/[id]/route";
import * as cancel from "../../app/api/v1/imports/[id]/cancel/route";
import * as exportsRoute from "../../app/api/v1/exports/route";

// The imports/exports API as the browser and the CLI use it: the upload is a streamed
// body (never buffered whole) stored for a worker, which imports it; the batch is polled.

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);
const BASE = "http://localhost/api/v1";

describe("the imports and exports API", () => {
  let db: TestDatabase;
  let curator: string;
  let viewer: string;
  let worker: WorkerRunner;
  beforeAll(async () => {
    db = await createTestDatabase();
    worker = await startTestWorker(db.url);
    const c = await db.prisma.user.create({ data: { email: "c@example.com", role: "CURATOR" } });
    const v = await db.prisma.user.create({ data: { email: "v@example.com", role: "VIEWER" } });
    curator = (await createApiToken(db.prisma, c.id, { name: "t" })).token;
    viewer = (await createApiToken(db.prisma, v.id, { name: "t" })).token;
  });
  afterAll(async () => {
    await worker?.stop();
    await db?.drop();
  });

  const upload = (file: string, token: string, query = "") =>
    imports.POST(
      new Request(`${BASE}/imports${query}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "x-file-name": encodeURIComponent(path.basename(file)),
          "content-type": "application/octet-stream",
        },
        body: Readable.toWeb(createReadStream(file, { highWaterMark: 4096 })) as ReadableStream,
        duplex: "half",
      } as RequestInit),
    );
  const get = async (id: string, token = viewer) =>
    (
      await oneImport.GET(new Request(`${BASE}/imports/${id}`, { headers: { authorization: `Bearer ${token}` } }), {
        params: Promise.resolve({ id }),
      })
    ).json();
  const settled = (id: string) =>
    waitFor(`import ${id} to finish`, async () => {
      const batch = await get(id);
      return batch.status !== "RUNNING" && batch.status !== "QUEUED" ? batch : null;
    });

  it("takes a streamed upload, answers 202 with the queued batch, and a worker imports it", async () => {
    const response = await upload(fixture("swe-bench/swe-bench-lite-test.json"), curator);
    expect(response.status).toBe(202);
    const batch = await response.json();
    expect(batch).toMatchObject({
      fileName: "swe-bench-lite-test.json",
      status: "QUEUED",
      bytesTotal: readFileSync(fixture("swe-bench/swe-bench-lite-test.json")).length,
    });
    const done = await settled(batch.id);
    expect(done).toMatchObject({
      status: "SUCCEEDED",
      format: "SWE_BENCH_INSTANCES",
      created: 5,
      errors: [],
      user: { email: "c@example.com" },
      attempts: 1,
    });
    expect(await db.prisma.importUploadChunk.count({ where: { batchId: batch.id } })).toBe(0);
    expect(done.bytesRead).toBe(readFileSync(fixture("swe-bench/swe-bench-lite-test.json")).length);
  });

  it("reports per-record errors of an upload and lists it in the history", async () => {
    const response = await upload(fixture("swe-agent/all_preds.jsonl"), curator, "?generator=ignored");
    const done = await settled((await response.json()).id);
    expect(done).toMatchObject({
      status: "FAILED",
      failed: 1,
      errors: [{ line: 1, reason: expect.stringContaining("no task") }],
    });
    const history = await (
      await imports.GET(new Request(`${BASE}/imports?limit=5`, { headers: { authorization: `Bearer ${viewer}` } }))
    ).json();
    expect(history.items.map((b: { fileName: string }) => b.fileName)).toEqual([
      "all_preds.jsonl",
      "swe-bench-lite-test.json",
    ]);
  });

  it("refuses an upload from a viewer and one without a file name", async () => {
    expect((await upload(fixture("swe-bench/swe-bench-lite-test.json"), viewer)).status).toBe(403);
    const nameless = await imports.POST(
      new Request(`${BASE}/imports`, { method: "POST", headers: { authorization: `Bearer ${curator}` }, body: "[]" }),
    );
    expect(nameless.status).toBe(400);
  });

  it("cancels a running import and leaves a finished one alone", async () => {
    const running = await db.prisma.importBatch.create({
      data: { fileName: "slow.jsonl", workerId: "elsewhere", heartbeatAt: new Date() },
    });
    const call = (id: string, token: string) =>
      cancel.POST(
        new Request(`${BASE}/imports/${id}/cancel`, { method: "POST", headers: { authorization: `Bearer ${token}` } }),
        { params: Promise.resolve({ id }) },
      );
    expect((await call(running.id, viewer)).status).toBe(403);
    expect(await (await call(running.id, curator)).json()).toMatchObject({ id: running.id, cancelRequested: true });
    const finished = (await db.prisma.importBatch.findFirstOrThrow({ where: { status: "SUCCEEDED" } })).id;
    expect(await (await call(finished, curator)).json()).toMatchObject({ status: "SUCCEEDED", cancelRequested: false });
  });

  it("streams an export as JSONL to a viewer", async () => {
    await db.prisma.task.updateMany({
      where: { instanceId: { in: ["django__django-16255", "sympy__sympy-13031"] } },
      data: { curationStatus: "APPROVED", automatedVerdict: "VALID" },
    });
    const response = await exportsRoute.GET(
      new Request(`${BASE}/exports`, { headers: { authorization: `Bearer ${viewer}` } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect(response.headers.get("content-disposition")).toMatch(/attachment; filename="swe-curator-export-.*\.jsonl"/);
    const rows = (await response.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.instance_id)).toEqual(["django__django-16255", "sympy__sympy-13031"]);
    const missing = await exportsRoute.GET(
      new Request(`${BASE}/exports?view=nope`, { headers: { authorization: `Bearer ${viewer}` } }),
    );
    expect(missing.status).toBe(404);
  });
});
