import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { importFile } from "../../lib/imports/import-file";
import { exportTasks, resolveExportFilters } from "../../lib/exports/export-tasks";
import { exportParquet } from "../../lib/exports/export-parquet";
import { HARNESS_FIELDS } from "../../lib/exports/swe-bench-row";
import type { PrismaClient } from "../../lib/db/client";

// Export → import into an empty database → the same tasks. The export is what the
// SWE-bench harness reads (its required fields, test lists as lists or JSON strings),
// with our provenance beside them.

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);

async function collect(lines: AsyncGenerator<string>) {
  let text = "";
  for await (const chunk of lines) text += chunk;
  return text;
}

function comparable(db: PrismaClient) {
  return db.task.findMany({
    orderBy: { instanceId: "asc" },
    select: {
      instanceId: true,
      kind: true,
      source: true,
      difficulty: true,
      problemStatement: true,
      hintsText: true,
      fixPatch: true,
      testPatch: true,
      failToPass: true,
      passToPass: true,
      issueCreatedAt: true,
      metadata: true,
      environment: {
        select: {
          key: true,
          baseCommit: true,
          setupCommit: true,
          version: true,
          repository: { select: { owner: true, name: true, url: true } },
        },
      },
    },
  });
}

describe("exporting approved tasks as SWE-bench JSONL", () => {
  let source: TestDatabase;
  let target: TestDatabase;
  let dir: string;
  let curatorId: string;
  beforeAll(async () => {
    source = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), "export-"));
    await importFile(source.prisma, fixture("swe-bench/swe-bench-lite-test.json"));
    await importFile(source.prisma, fixture("swe-bench/swe-bench-dev-easy.json"));
    const curator = await source.prisma.user.create({ data: { email: "curator@example.com", role: "CURATOR" } });
    curatorId = curator.id;
    const approved = ["django__django-16255", "pydicom__pydicom-1458", "sqlfluff__sqlfluff-2386"];
    for (const instanceId of approved) {
      const task = await source.prisma.task.update({
        where: { instanceId },
        data: { curationStatus: "APPROVED", difficulty: instanceId.startsWith("django") ? "MEDIUM" : null },
      });
      await source.prisma.curationDecision.create({
        data: { taskId: task.id, curatorId, verdict: "APPROVE", comment: "checked the patch" },
      });
    }
    await source.prisma.task.update({
      where: { instanceId: "sympy__sympy-13031" },
      data: { curationStatus: "REJECTED" },
    });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await target?.drop();
    await source?.drop();
  });

  /** The default export (the approved tasks, as JSONL); each test that needs it makes its own. */
  async function exportApproved() {
    const { filters } = await resolveExportFilters(source.prisma, curatorId, {});
    return collect(exportTasks(source.prisma, filters));
  }

  it("writes only the approved tasks, with every field the harness reads and our provenance", async () => {
    const text = await exportApproved();
    const rows = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows.map((r) => r.instance_id)).toEqual([
      "django__django-16255",
      "pydicom__pydicom-1458",
      "sqlfluff__sqlfluff-2386",
    ]);
    for (const row of rows) {
      for (const field of HARNESS_FIELDS) expect(row, field).toHaveProperty(field);
      expect(Array.isArray(row.FAIL_TO_PASS) && row.FAIL_TO_PASS.every((id: unknown) => typeof id === "string")).toBe(
        true,
      );
    }
    const [django, pydicom] = rows;
    expect(django).toMatchObject({
      repo: "django/django",
      base_commit: "444b6da7cc229a58a2c476a52e45233001dc7073",
      version: "4.2",
      environment_setup_commit: "0fbdb9784da915fce5dcc1fe82bac9b4785749e5",
      difficulty: "15 min - 1 hour",
    });
    expect(pydicom).toMatchObject({
      task_id: "pydicom__pydicom-1458",
      query: expect.stringMatching(/^Pixel Representation/),
    });
    expect(django.swe_curator).toMatchObject({
      schema: "swe-curator/export@1",
      curation_status: "APPROVED",
      decisions: [{ verdict: "APPROVE", curator: "curator@example.com", comment: "checked the patch" }],
      environment: {
        key: "django__django@444b6da7cc229a58a2c476a52e45233001dc7073",
        revision: 1,
        placeholder_recipe: true,
      },
      validation_runs: [],
    });
  });

  it("writes the Hugging Face form of the test lists when asked", async () => {
    const { filters } = await resolveExportFilters(source.prisma, curatorId, { query: "status=REJECTED" });
    const [row] = (await collect(exportTasks(source.prisma, filters, { testLists: "json-string", provenance: false })))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(row.instance_id).toBe("sympy__sympy-13031");
    expect(row.FAIL_TO_PASS).toBe('["test_sparse_matrix"]');
    expect(row).not.toHaveProperty("swe_curator");
  });

  it("writes the same selection as Parquet in the Hugging Face layout", async () => {
    const { asyncBufferFromFile, parquetReadObjects } = await import("hyparquet");
    const { filters } = await resolveExportFilters(source.prisma, curatorId, {});
    const file = path.join(dir, "approved.parquet");
    expect(await exportParquet(source.prisma, filters, file)).toBe(3);
    const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(file) })) as Record<string, string>[];
    expect(rows.map((r) => r.instance_id)).toEqual([
      "django__django-16255",
      "pydicom__pydicom-1458",
      "sqlfluff__sqlfluff-2386",
    ]);
    expect(rows[0].FAIL_TO_PASS).toBe('["test_callable_sitemod_no_items (sitemaps_tests.test_http.HTTPSitemapTests)"]');
    expect(JSON.parse(rows[0].swe_curator)).toMatchObject({
      curation_status: "APPROVED",
      environment: { revision: 1 },
    });
    expect(rows[1].difficulty).toBeNull();
  });

  it("exports a saved view", async () => {
    await source.prisma.savedView.create({
      data: { userId: curatorId, scope: "tasks", name: "django only", query: "repository=django/django" },
    });
    const { filters, description } = await resolveExportFilters(source.prisma, curatorId, { view: "django only" });
    expect(description).toBe('view "django only"');
    const rows = (await collect(exportTasks(source.prisma, filters)))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.instance_id)).toEqual(["django__django-15781", "django__django-16255"]);
    await expect(resolveExportFilters(source.prisma, curatorId, { view: "nope" })).rejects.toThrow(/not found/);
  });

  it("imports the export into an empty database as the same tasks", async () => {
    const exported = path.join(dir, "approved.jsonl");
    writeFileSync(exported, await exportApproved());
    target = await createTestDatabase();
    const batch = await importFile(target.prisma, exported);
    expect(batch).toMatchObject({ format: "SWE_BENCH_INSTANCES", created: 3, failed: 0 });
    const approved = (await comparable(source.prisma)).filter((t) =>
      ["django__django-16255", "pydicom__pydicom-1458", "sqlfluff__sqlfluff-2386"].includes(t.instanceId),
    );
    expect(await comparable(target.prisma)).toEqual(approved);
    // and importing it again into the source changes nothing there
    expect(await importFile(source.prisma, exported)).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });
});
