import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { importFile } from "../../lib/imports/import-file";

// Bad input loses nothing good: each bad record is reported with its line and reason,
// the good ones import, nothing is half-written, and importing again changes nothing.

const lite = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "../fixtures/swe-bench/swe-bench-lite-test.json"), "utf8"),
) as Record<string, unknown>[];
const line = (value: unknown) => JSON.stringify(value);

describe("importing files with bad records", () => {
  let db: TestDatabase;
  let dir: string;
  const file = (name: string, content: string | Buffer) => {
    const target = path.join(dir, name);
    writeFileSync(target, content);
    return target;
  };
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), "imports-errors-"));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db?.drop();
  });

  const mixed = () =>
    [
      line(lite[0]),
      '{"instance_id": "broken__json-1", "repo": ',
      line({ ...lite[1], FAIL_TO_PASS: 42 }),
      line({ ...lite[2], FAIL_TO_PASS: JSON.stringify(lite[2].FAIL_TO_PASS), PASS_TO_PASS: "[]" }),
      "",
      line({ ...lite[3], instance_id: undefined }),
      line(lite[4]),
      line({ ...lite[3], instance_id: "nul__byte-1", problem_statement: "a\u0000b" }),
      line(lite[3]).slice(0, 200),
    ].join("\n");

  it("imports the good records of a mixed file and reports each bad one with its line", async () => {
    const batch = await importFile(db.prisma, file("mixed.jsonl", mixed()));
    expect(batch).toMatchObject({
      status: "PARTIAL",
      format: "SWE_BENCH_INSTANCES",
      created: 3,
      updated: 0,
      unchanged: 0,
      failed: 5,
    });
    expect(batch.errors).toEqual([
      { line: 2, reason: expect.stringMatching(/cut off|malformed JSON/) },
      {
        line: 3,
        key: "sympy__sympy-13031",
        reason: expect.stringContaining(
          "FAIL_TO_PASS must be a list, text or null, not a number: this file was read as",
        ),
      },
      { line: 6, reason: expect.stringContaining("instance_id is missing: this file was read as") },
      { line: 8, key: "nul__byte-1", reason: expect.stringMatching(/NUL character/) },
      { line: 9, reason: expect.stringMatching(/cut off.*truncated/) },
    ]);
    expect(batch.bytesRead).toBe(batch.bytesTotal);
    const pytest = await db.prisma.task.findUniqueOrThrow({ where: { instanceId: "pytest-dev__pytest-11143" } });
    expect(pytest.failToPass).toEqual(lite[2].FAIL_TO_PASS);
    expect(pytest.passToPass).toEqual([]);
    // nothing half-written: no task, and no environment left behind for a failed record
    expect(await db.prisma.task.count()).toBe(3);
    expect(await db.prisma.environment.count()).toBe(3);
  });

  it("creates nothing when the same file is imported again", async () => {
    const batch = await importFile(db.prisma, file("mixed.jsonl", mixed()));
    expect(batch).toMatchObject({ created: 0, updated: 0, unchanged: 3, failed: 5 });
    expect(await db.prisma.task.count()).toBe(3);
    expect(await db.prisma.auditEvent.count({ where: { action: "import.update" } })).toBe(0);
  });

  it("updates a changed record, bumps its version and writes an AuditEvent with before and after", async () => {
    const before = await db.prisma.task.findUniqueOrThrow({ where: { instanceId: "django__django-16255" } });
    const changed = mixed().replace(line(lite[0]), line({ ...lite[0], problem_statement: "A clearer issue text." }));
    const batch = await importFile(db.prisma, file("mixed.jsonl", changed), { actorId: null });
    expect(batch).toMatchObject({ created: 0, updated: 1, unchanged: 2, failed: 5 });
    const after = await db.prisma.task.findUniqueOrThrow({ where: { instanceId: "django__django-16255" } });
    expect(after.problemStatement).toBe("A clearer issue text.");
    expect(after.version).toBe(before.version + 1);
    expect(after.curationStatus).toBe(before.curationStatus);
    const audit = await db.prisma.auditEvent.findFirstOrThrow({
      where: { entityType: "task", entityId: before.id, action: "import.update" },
    });
    expect(audit.before).toEqual({ problemStatement: before.problemStatement });
    expect(audit.after).toMatchObject({ problemStatement: "A clearer issue text.", importBatchId: batch.id });
  });

  it("gives JSON-array elements the line they start on", async () => {
    const pretty = JSON.stringify([lite[0], { ...lite[1], repo: "no-slash" }, lite[4]], null, 2);
    const batch = await importFile(db.prisma, file("array.json", pretty));
    const secondStarts =
      pretty.split("\n").findIndex(
        (l, i) =>
          i > 0 &&
          l === "  {" &&
          pretty
            .split("\n")
            .slice(0, i)
            .some((x) => x === "  },"),
      ) + 1;
    expect(batch).toMatchObject({ unchanged: 1, updated: 1, failed: 1 });
    expect(batch.errors).toEqual([
      { line: secondStarts, key: "sympy__sympy-13031", reason: expect.stringMatching(/^repo: expected owner\/name/) },
    ]);
  });

  it("reports a truncated JSON array and keeps the records before the cut", async () => {
    const text = JSON.stringify([lite[0], lite[1], lite[2]]);
    const batch = await importFile(db.prisma, file("cut.json", text.slice(0, text.length - 500)));
    expect(batch.status).toBe("PARTIAL");
    expect(batch.unchanged + batch.updated + batch.created).toBe(2);
    expect((batch.errors as { reason: string }[]).map((e) => e.reason)).toEqual([
      expect.stringMatching(/cut off/),
      expect.stringMatching(/ends before its JSON array is closed/),
    ]);
  });

  it("skips a 100 MB line without loading it and imports the lines around it", async () => {
    const target = path.join(dir, "huge.jsonl");
    const fd = openSync(target, "w");
    writeSync(fd, line({ ...lite[0], instance_id: "huge__before-1" }) + "\n");
    writeSync(fd, '{"instance_id": "huge__line-1", "problem_statement": "');
    const block = Buffer.alloc(1024 * 1024, "x");
    for (let i = 0; i < 100; i++) writeSync(fd, block);
    writeSync(fd, '"}\n');
    writeSync(fd, line({ ...lite[0], instance_id: "huge__after-1" }) + "\n");
    closeSync(fd);
    const batch = await importFile(db.prisma, target);
    expect(batch).toMatchObject({ created: 2, failed: 1 });
    expect(batch.errors).toEqual([{ line: 2, reason: expect.stringMatching(/100\.0 MB, over the 32\.0 MB limit/) }]);
  });

  it("refuses a binary file and an unknown format with a reason, importing nothing", async () => {
    const binary = await importFile(
      db.prisma,
      file("photo.json", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])),
    );
    expect(binary).toMatchObject({
      status: "FAILED",
      format: "UNKNOWN",
      created: 0,
      errorMessage: expect.stringMatching(/binary/),
    });
    const unknown = await importFile(db.prisma, file("other.jsonl", '{"name": "x", "value": 1}\n'));
    expect(unknown).toMatchObject({
      status: "FAILED",
      errorMessage: expect.stringMatching(/^Unrecognised file: .*name, value/),
    });
  });

  it("stops at the next batch when cancelled, keeping what was written", async () => {
    const rows = Array.from({ length: 30 }, (_, i) => line({ ...lite[0], instance_id: `cancel__me-${i}` })).join("\n");
    const batchRow = await db.prisma.importBatch.create({ data: { fileName: "cancel.jsonl", cancelRequested: true } });
    const batch = await importFile(db.prisma, file("cancel.jsonl", rows), { batchId: batchRow.id });
    expect(batch).toMatchObject({ id: batchRow.id, status: "CANCELLED", created: 0 });
    expect(await db.prisma.task.count({ where: { instanceId: { startsWith: "cancel__" } } })).toBe(0);
  });
});
