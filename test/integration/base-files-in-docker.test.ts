import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { DEMO_DIR, loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { startTestWorker, waitFor, waitForGroup } from "../helpers/worker";
import { apiTokenFor, callRoute } from "../helpers/route-call";
import { requestBuild } from "@/lib/builds/request-build";
import { requestValidation } from "@/lib/runs/request-validation";
import { BASE_FILE_MAX_BYTES } from "@/lib/builds/base-files";
import { GET as getBaseFile } from "@/app/api/v1/tasks/[id]/base-files/route";
import type { WorkerRunner } from "@/workers/runner";
import type { DemoTask } from "@/lib/environments/load-demo-environments";

// Base files are read from the real built image (real Docker) and stored in real Postgres:
// after a build, the files the tasks' patches change are there, once per content, and served.

const docker = await dockerForTests();
const FINISHED = ["SUCCEEDED", "FAILED", "CANCELLED"];
const repoFile = (relative: string) => readFileSync(path.join(DEMO_DIR, "repos/calc", relative), "utf8");

describe.skipIf(!docker.ready)("base files of a built environment", () => {
  let database: TestDatabase;
  let worker: WorkerRunner;
  let tasks: Record<string, DemoTask>;

  beforeAll(async () => {
    database = await createTestDatabase();
    tasks = await loadDemoTasks(database.prisma);
    worker = await startTestWorker(database.url);
  });

  afterAll(async () => {
    await worker?.stop();
    await database?.drop();
  });

  const environmentId = async (key: string) =>
    (await database.prisma.environment.findUniqueOrThrow({ where: { key } })).id;
  const build = async (key: string) => {
    const { id } = await requestBuild(database.prisma, { environmentId: await environmentId(key), actorId: null });
    return waitFor(
      `build ${id}`,
      async () => {
        const row = await database.prisma.build.findUniqueOrThrow({ where: { id } });
        return FINISHED.includes(row.status) ? row : null;
      },
      180_000,
    );
  };
  const baseFiles = async (key: string) =>
    database.prisma.environmentBaseFile.findMany({
      where: { environmentId: await environmentId(key) },
      include: { blob: true },
      orderBy: { path: "asc" },
    });

  it("stores the files the patches change, as the image has them at the base commit", async () => {
    expect(await build("demo/calc@base")).toMatchObject({ status: "SUCCEEDED" });
    const files = await waitFor("base files of demo/calc@base", async () => {
      const rows = await baseFiles("demo/calc@base");
      return rows.length ? rows : null;
    });
    const byPath = Object.fromEntries(files.map((file) => [file.path, file]));
    expect(byPath["calc/ops.py"]?.blob?.content).toBe(repoFile("calc/ops.py"));
    expect(byPath["tests/test_ops.py"]?.blob?.content).toBe(repoFile("tests/test_ops.py"));
    expect(byPath["calc/ops.py"]).toMatchObject({
      skippedReason: null,
      size: Buffer.byteLength(repoFile("calc/ops.py")),
    });
  });

  it("two environments sharing a file store one blob", async () => {
    expect(await build("demo/calc@forced-exit")).toMatchObject({ status: "SUCCEEDED" });
    const forced = await waitFor("base files of demo/calc@forced-exit", async () => {
      const rows = await baseFiles("demo/calc@forced-exit");
      return rows.length ? rows : null;
    });
    const base = await baseFiles("demo/calc@base");
    const ops = (rows: typeof base) => rows.find((file) => file.path === "calc/ops.py")!;
    expect(ops(forced).sha256).toBe(ops(base).sha256);
    const links = await database.prisma.environmentBaseFile.count({ where: { sha256: ops(base).sha256 } });
    expect(links).toBe(2);
    const blobs = await database.prisma.fileBlob.count();
    const distinct = new Set([...base, ...forced].flatMap((file) => (file.sha256 ? [file.sha256] : []))).size;
    expect(blobs).toBe(distinct);
  });

  it("a candidate imported after the build gets its files on its validation run; a file the image lacks is recorded as skipped", async () => {
    const task = tasks["demo__calc-1"];
    const patch = `diff --git a/calc/__init__.py b/calc/__init__.py
--- a/calc/__init__.py
+++ b/calc/__init__.py
@@ -1 +1,2 @@
${` ${repoFile("calc/__init__.py").split("\n")[0]}`}
+# touched by a late candidate
diff --git a/docs/missing.txt b/docs/missing.txt
--- a/docs/missing.txt
+++ b/docs/missing.txt
@@ -1 +1 @@
-old
+new
`;
    const candidate = await database.prisma.candidatePatch.create({
      data: { taskId: task.id, generator: "late-import", patch },
    });
    const { groupId } = await requestValidation(database.prisma, {
      taskId: task.id,
      candidatePatchId: candidate.id,
      actorId: null,
    });
    await waitForGroup(database.prisma, groupId, 180_000);
    const files = Object.fromEntries((await baseFiles("demo/calc@base")).map((file) => [file.path, file]));
    expect(files["calc/__init__.py"]?.blob?.content).toBe(repoFile("calc/__init__.py"));
    expect(files["docs/missing.txt"]).toMatchObject({
      sha256: null,
      skippedReason: "not in the image at the base commit",
    });
    expect(BASE_FILE_MAX_BYTES).toBe(1024 * 1024);
  });

  it("serves them through the API with the task detail's permission, and says why one is not stored", async () => {
    const { token } = await apiTokenFor(database.prisma, "VIEWER");
    const task = tasks["demo__calc-1"];
    const ask = (filePath: string, id = task.id) =>
      callRoute(getBaseFile, token, `/api/v1/tasks/${id}/base-files?path=${encodeURIComponent(filePath)}`, {
        params: { id },
      });

    const stored = await ask("calc/ops.py");
    expect(stored.status).toBe(200);
    expect(await stored.json()).toMatchObject({ path: "calc/ops.py", stored: true, content: repoFile("calc/ops.py") });
    // a trajectory names the file as the agent saw it, under the work tree
    expect(await (await ask("/testbed/calc/ops.py")).json()).toMatchObject({ path: "calc/ops.py", stored: true });
    expect(await (await ask("docs/missing.txt")).json()).toEqual({
      path: "docs/missing.txt",
      stored: false,
      reason: "The base file is not stored: not in the image at the base commit.",
    });
    expect(await (await ask("never/touched.py")).json()).toMatchObject({
      stored: false,
      reason: expect.stringContaining("has not been read from an image yet"),
    });
    expect((await ask("calc/ops.py", "no-such-task")).status).toBe(404);
    const anonymous = await getBaseFile(
      new Request(`http://localhost/api/v1/tasks/${task.id}/base-files?path=calc/ops.py`),
      { params: Promise.resolve({ id: task.id }) },
    );
    expect(anonymous.status).toBe(401);
  });
});
