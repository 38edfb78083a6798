import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { importFile } from "../../lib/imports/import-file";

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);

describe("importing the real sample files", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.drop());

  it("imports the SWE-bench Lite instances with an environment per repo@base_commit running SWE-bench's published image", async () => {
    const batch = await importFile(db.prisma, fixture("swe-bench/swe-bench-lite-test.json"));
    expect(batch).toMatchObject({
      status: "SUCCEEDED",
      format: "SWE_BENCH_INSTANCES",
      created: 5,
      updated: 0,
      unchanged: 0,
      failed: 0,
    });
    const task = await db.prisma.task.findUniqueOrThrow({
      where: { instanceId: "django__django-16255" },
      include: { environment: { include: { repository: true, currentRevision: true } } },
    });
    expect(task.failToPass).toEqual(["test_callable_sitemod_no_items (sitemaps_tests.test_http.HTTPSitemapTests)"]);
    expect(task.passToPass).toContain("A simple sitemap can be rendered");
    expect(task.source).toBe("SWE_BENCH");
    expect(task.importBatchId).toBe(batch.id);
    expect(task.issueCreatedAt?.toISOString()).toBe("2022-11-04T13:49:40.000Z");
    expect(task.environment.key).toBe("django__django@444b6da7cc229a58a2c476a52e45233001dc7073");
    expect(task.environment.setupCommit).toBe("0fbdb9784da915fce5dcc1fe82bac9b4785749e5");
    expect(task.environment.version).toBe("4.2");
    expect(task.environment.repository).toMatchObject({
      owner: "django",
      name: "django",
      url: "https://github.com/django/django",
    });
    expect(task.environment.currentRevision?.number).toBe(1);
    expect(task.environment.currentRevision?.reason).toMatch(
      /^IMAGE: runs the published image swebench\/sweb\.eval\.x86_64\.django_1776_django-16255:latest/,
    );
    expect(task.environment).toMatchObject({
      imageSource: "IMAGE",
      imageReference: "swebench/sweb.eval.x86_64.django_1776_django-16255:latest",
      imageDigest: null,
    });
    expect(task.environment.metadata).toMatchObject({ placeholderRecipe: true });
    expect(batch.environmentSources).toEqual({ IMAGE: 5 });
  });

  it("imports the same file again without changing anything", async () => {
    const batch = await importFile(db.prisma, fixture("swe-bench/swe-bench-lite-test.json"));
    expect(batch).toMatchObject({ status: "SUCCEEDED", created: 0, updated: 0, unchanged: 5, failed: 0 });
    expect(await db.prisma.environmentRevision.count()).toBe(5);
    expect(await db.prisma.auditEvent.count({ where: { action: "import.update" } })).toBe(0);
  });

  it("imports a SWE-agent 0.x trajectory with its steps, tokens and cost", async () => {
    const batch = await importFile(db.prisma, fixture("swe-agent/pydicom__pydicom-1458.traj"));
    expect(batch).toMatchObject({ status: "SUCCEEDED", format: "SWE_AGENT_TRAJECTORY", created: 1, failed: 0 });
    const trajectory = await db.prisma.trajectory.findFirstOrThrow({
      include: { steps: { orderBy: { index: "asc" } } },
    });
    expect(trajectory).toMatchObject({
      role: "SOLVER",
      format: "SWE_AGENT",
      exitStatus: "submitted",
      tokensIn: 122612,
      tokensOut: 1369,
      costUsd: 1.26719,
      stepCount: 12,
    });
    expect(trajectory.steps).toHaveLength(12);
    expect(trajectory.steps[0].action).toBe("create reproduce_bug.py\n");
    expect(trajectory.steps[0].metadata).toMatchObject({
      state: { open_file: "n/a", working_dir: "/pydicom__pydicom" },
    });
    expect(trajectory.submission).toContain("diff --git a/pydicom/pixel_data_handlers/numpy_handler.py");
    const again = await importFile(db.prisma, fixture("swe-agent/pydicom__pydicom-1458.traj"));
    expect(again).toMatchObject({ created: 0, unchanged: 1 });
  });
});
