import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { startTestWorker, waitFor, waitForGroup } from "../helpers/worker";
import { requestBuild } from "@/lib/builds/request-build";
import { cancelBuild } from "@/lib/builds/cancel-build";
import { requestValidation } from "@/lib/runs/request-validation";
import type { WorkerRunner } from "@/workers/runner";
import type { DemoTask } from "@/lib/environments/load-demo-environments";

const docker = await dockerForTests();
const FINISHED = ["SUCCEEDED", "FAILED", "CANCELLED"];

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

  const waitForBuild = (id: string) =>
    waitFor(`build ${id}`, async () => {
      const build = await database.prisma.build.findUniqueOrThrow({ where: { id } });
      return FINISHED.includes(build.status) ? build : null;
    });

  async function addRevision(
    change: { dockerfile?: (text: string) => string; evalScript?: (text: string) => string },
    reason: string,
  ) {
    const environment = await database.prisma.environment.findUniqueOrThrow({
      where: { id: environmentId },
      include: { currentRevision: true },
    });
    const current = environment.currentRevision!;
    const revision = await database.prisma.environmentRevision.create({
      data: {
        environmentId,
        number: current.number + 1,
        dockerfile: change.dockerfile ? change.dockerfile(current.dockerfile) : current.dockerfile,
        evalScript: change.evalScript ? change.evalScript(current.evalScript) : current.evalScript,
        reason,
      },
    });
    await database.prisma.environment.update({
      where: { id: environmentId },
      data: { currentRevisionId: revision.id },
    });
    return revision;
  }

  it("builds a new recipe from its context with a streamed log, then reuses the image for an equal context", async () => {
    // a unique layer, so this really builds rather than finding the image
    await addRevision({ dockerfile: (d) => `${d}\nRUN echo ${Date.now()} > /build-stamp\n` }, "stamp");
    const first = await waitForBuild((await requestBuild(database.prisma, { environmentId, actorId: null })).id);
    expect(first).toMatchObject({
      status: "SUCCEEDED",
      cacheHit: false,
      imageTag: expect.stringMatching(/^swe-curator\/env:/),
    });
    expect(first.imageId).toMatch(/^sha256:/);
    stampedImages.push(first.imageTag!);
    expect(first.log).toContain("Step");
    expect(await database.prisma.logChunk.count({ where: { buildId: first.id } })).toBeGreaterThan(0);

    const again = await waitForBuild((await requestBuild(database.prisma, { environmentId, actorId: null })).id);
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
    const build = await waitForBuild((await requestBuild(database.prisma, { environmentId, actorId: null })).id);
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
