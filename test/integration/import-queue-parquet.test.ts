import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { startTestWorker, IN_PROCESS_IMPORT_LEASE } from "../helpers/worker";
import { waitForImport } from "../helpers/imports";
import { cliImport } from "../helpers/swe-curator-cli";
import { importFile } from "@/lib/imports/import-file";
import { startUploadImport } from "@/lib/imports/upload-import";

// Parquet as dataset hubs publish it (the Hugging Face string layout with JSON-encoded test
// lists, and the list<string> layout of SWE-Gym / SWE-smith) goes through the same column
// mapping as JSONL: importing the Parquet after the JSON of the same rows changes nothing.

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);
const lite = JSON.parse(readFileSync(fixture("swe-bench/swe-bench-lite-test.json"), "utf8")) as Record<
  string,
  unknown
>[];
const text = (value: unknown) =>
  value === undefined || value === null ? null : typeof value === "string" ? value : JSON.stringify(value);

function writeParquet(file: string, rows: Record<string, unknown>[], rowGroupSize = 2) {
  const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  writeFileSync(
    file,
    Buffer.from(
      parquetWriteBuffer({
        columnData: names.map((name) => ({ name, data: rows.map((row) => text(row[name])), type: "STRING" as const })),
        rowGroupSize,
      }),
    ),
  );
}

describe("Parquet imports", () => {
  let db: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), "parquet-"));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db?.drop();
  });

  it("maps the Hugging Face layout exactly like the JSON of the same rows, uploaded through the queue", async () => {
    expect(await importFile(db.prisma, fixture("swe-bench/swe-bench-lite-test.json"))).toMatchObject({
      status: "SUCCEEDED",
      created: 5,
    });
    const body = Readable.toWeb(
      Readable.from([readFileSync(fixture("parquet/swe-bench-lite-test.hf-layout.parquet"))]),
    ) as ReadableStream<Uint8Array>;
    const queued = await startUploadImport(db.prisma, body, {
      fileName: "swe-bench-lite-test.hf-layout.parquet",
      actorId: null,
    });
    const worker = await startTestWorker(db.url, { concurrency: 1, config: IN_PROCESS_IMPORT_LEASE });
    try {
      const done = await waitForImport(db.prisma, queued.id);
      expect(done).toMatchObject({
        status: "SUCCEEDED",
        format: "SWE_BENCH_INSTANCES",
        created: 0,
        updated: 0,
        unchanged: 5,
        failed: 0,
      });
    } finally {
      await worker.stop();
    }
  });

  it("reads list<string> columns and timestamps as the JSON's lists and dates", async () => {
    // the real file lists pylint-dev__astroid-1268 twice: four tasks, the second row of it unchanged
    expect(await importFile(db.prisma, fixture("swe-bench/swe-bench-dev-easy.json"))).toMatchObject({
      created: 4,
      unchanged: 1,
    });
    // through `swe-curator import`, as a user downloads a dataset hub's file and imports it
    const { code, batches } = await cliImport([fixture("parquet/swe-bench-dev-easy.list-columns.parquet")], {
      DATABASE_URL: db.url,
    });
    expect(code).toBe(0);
    expect(batches[0]).toMatchObject({
      status: "SUCCEEDED",
      format: "SWE_BENCH_INSTANCES",
      created: 0,
      unchanged: 5,
      updated: 0,
      failed: 0,
    });
    const task = await db.prisma.task.findUniqueOrThrow({ where: { instanceId: "pydicom__pydicom-1458" } });
    expect(task.failToPass).toHaveLength(2);
  });

  it("names each bad row and imports the others; refuses a truncated file and unknown columns with a reason", async () => {
    const rows: Record<string, unknown>[] = lite.map((row, i) => ({ ...row, instance_id: `parquet__row-${i}` }));
    rows[1] = { ...rows[1], FAIL_TO_PASS: "not a list" };
    delete rows[3].repo;
    const file = path.join(dir, "mixed.parquet");
    writeParquet(file, rows);
    const batch = await importFile(db.prisma, file);
    expect(batch).toMatchObject({ status: "PARTIAL", created: 3, failed: 2 });
    expect(batch.errors).toEqual([
      { line: 2, key: "parquet__row-1", reason: expect.stringMatching(/FAIL_TO_PASS/) },
      { line: 4, key: "parquet__row-3", reason: expect.stringMatching(/repo/) },
    ]);

    const truncated = path.join(dir, "cut.parquet");
    writeFileSync(truncated, readFileSync(file).subarray(0, 4000));
    expect(await importFile(db.prisma, truncated)).toMatchObject({
      status: "FAILED",
      created: 0,
      errorMessage: expect.stringMatching(/Parquet file's footer could not be read .*truncated\?/),
    });

    const other = path.join(dir, "other.parquet");
    writeParquet(other, [{ name: "x", value: "1" }]);
    expect(await importFile(db.prisma, other)).toMatchObject({
      status: "FAILED",
      errorMessage: expect.stringMatching(
        /^Unrecognised file: a Parquet file whose columns match no known format \(its columns: name, value\)/,
      ),
    });
  });

  it("resumes at the checkpoint's row, skipping whole row groups already imported", async () => {
    const rows = lite.map((row, i) => ({ ...row, instance_id: `resume__row-${i}` }));
    const file = path.join(dir, "resume.parquet");
    writeParquet(file, rows);
    const counts = { created: 3, updated: 0, unchanged: 0, failed: 0 };
    const batch = await db.prisma.importBatch.create({
      data: { fileName: "resume.parquet", checkpoint: { records: 3, counts, errors: [] } },
    });
    const done = await importFile(db.prisma, file, { batchId: batch.id });
    expect(done).toMatchObject({ status: "SUCCEEDED", created: 5, checkpoint: null });
    const imported = await db.prisma.task.findMany({
      where: { instanceId: { startsWith: "resume__" } },
      select: { instanceId: true },
      orderBy: { instanceId: "asc" },
    });
    expect(imported.map((t) => t.instanceId)).toEqual(["resume__row-3", "resume__row-4"]);
  });
});
