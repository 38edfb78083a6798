import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { reviseRecipe, startTestWorker, waitForBuild, waitForGroup } from "../helpers/worker";
import { requestBuild } from "@/lib/builds/request-build";
import { cancelBuild } from "@/lib/builds/cancel-build";
import { requestValidation } from "@/lib/runs/request-validation";
import type { WorkerRunner } from "@/workers/runner";
import type { DemoTask } from "@/lib/environments/load-demo-environments";

const docker = await dockerForTests();

describe.skipIf(!docker.ready)("environment builds", () => {
  let database: TestDatabase;
  let worker: WorkerRunner;
  let tasks: Record<string, DemoTask>;
  let environmentId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    tasks = await loadDemoTasks(database.prisma);
    environmentId = (await database.prisma.environment.findUniqueOrThrow({ where: { key: "demo/calc@base" } })).id;
    worker = await startTestWorker(database.url);
  });

  const stampedImages: string[] = [];
  afterAll(async () => {
    await worker?.stop();
    await database?.drop();
    // the stamped recipe's image is unique to this run: don't leave it behind on a developer's machine
    const docker = new Docker();
    for (const tag of stampedImages)
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => {});
  });

  const buildAndWait = async () =>
    waitForBuild(database.prisma, (await requestBuild(database.prisma, { environmentId, actorId: null })).id);
  const addRevision = async (change: Parameters<typeof reviseRecipe>[2], reason: string) =>
    (await reviseRecipe(database.prisma, environmentId, change, reason)).revision;

  it("builds a new recipe from its context with a streamed log, then reuses the image for an equal context", async () => {
    // a unique layer, so this really builds rather than finding the image
    await addRevision({ dockerfile: (d) => `${d}\nRUN echo ${Date.now()} > /build-stamp\n` }, "stamp");
    const first = await buildAndWait();
    expect(first).toMatchObject({
      status: "SUCCEEDED",
      cacheHit: false,
      imageTag: expect.stringMatching(/^swe-curator\/env:/),
    });
    expect(first.imageId).toMatch(/^sha256:/);
    stampedImages.push(first.imageTag!);
    expect(first.log).toContain("Step");
    expect(await database.prisma.logChunk.count({ where: { buildId: first.id } })).toBeGreaterThan(0);

    const again = await buildAndWait();
    expect(again).toMatchObject({
      status: "SUCCEEDED",
      cacheHit: true,
      imageId: first.imageId,
      contextHash: first.contextHash,
    });
  });

  it("an eval-script-only edit validates on the same image without building", async () => {
    const before = await database.prisma.build.count({ where: { cacheHit: false } });
    const edited = await addRevision({ evalScript: (e) => `# clarified by a curator\n${e}` }, "eval script only");
    const { groupId } = await requestValidation(database.prisma, { taskId: tasks["demo__calc-1"].id, actorId: null });
    const runs = await waitForGroup(database.prisma, groupId);
    expect(runs.every((run) => run.revisionId === edited.id && run.status === "SUCCEEDED")).toBe(true);
    expect(await database.prisma.build.count({ where: { cacheHit: false } })).toBe(before);
    const previous = await database.prisma.environmentRevision.findFirstOrThrow({
      where: { environmentId, number: edited.number - 1 },
    });
    const revision = await database.prisma.environmentRevision.findUniqueOrThrow({ where: { id: edited.id } });
    expect(revision.contextHash).toBe(previous.contextHash);
  });

  it("a Dockerfile that fails to build is a BUILD_ERROR for the build and for the task", async () => {
    await addRevision({ dockerfile: (d) => `${d}\nRUN echo broken recipe && exit 3\n` }, "broken");
    const build = await buildAndWait();
    expect(build.status).toBe("FAILED");
    expect(build.errorMessage).toMatch(/returned a non-zero code: 3/);
    expect(build.log).toContain("broken recipe");

    const { groupId } = await requestValidation(database.prisma, { taskId: tasks["demo__calc-1"].id, actorId: null });
    const runs = await waitForGroup(database.prisma, groupId);
    expect(runs.every((run) => run.status === "FAILED" && run.failureClass === "BUILD_ERROR")).toBe(true);
    const task = await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-1"].id } });
    expect(task).toMatchObject({ automatedVerdict: "INVALID", failureClass: "BUILD_ERROR" });
  });

  it("a queued build can be cancelled before a worker takes it", async () => {
    await worker.stop();
    const build = await requestBuild(database.prisma, { environmentId, actorId: null });
    const cancelled = await cancelBuild(database.prisma, build.id);
    expect(cancelled.status).toBe("CANCELLED");
    const jobs = await database.prisma.$queryRaw<
      unknown[]
    >`select id from graphile_worker.jobs where key = ${`build-environment:${build.id}`}`;
    expect(jobs).toEqual([]);
    await expect(cancelBuild(database.prisma, build.id)).rejects.toThrow(/already finished/);
    worker = await startTestWorker(database.url);
  });
});
