import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { startTestWorker, waitFor, waitForGroup, waitForHandBack } from "../helpers/worker";
import { dockerForTests } from "../helpers/docker";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { requestValidation } from "@/lib/runs/request-validation";
import type { WorkerRunner } from "@/workers/runner";

// No Docker engine at all: this needs none, so it runs everywhere (the last case needs one).
const docker = await dockerForTests();
describe("when no Docker engine answers", () => {
  let database: TestDatabase;
  let worker: WorkerRunner;
  let tasks: Awaited<ReturnType<typeof loadDemoTasks>>;
  let waiting: string;
  const missing = createDockerEngine({ DOCKER_HOST: "unix:///nonexistent/docker.sock" });

  beforeAll(async () => {
    database = await createTestDatabase();
    worker = await startTestWorker(database.url, { docker: missing });
  });

  afterAll(async () => {
    await worker?.stop();
    await database?.drop();
  });

  it("validations wait for the engine with a reason naming the endpoint, spend no attempt, the verdict waits, and the worker says so in its heartbeat", async () => {
    tasks = await loadDemoTasks(database.prisma);
    const { groupId } = await requestValidation(database.prisma, { taskId: tasks["demo__calc-1"].id, actorId: null });
    waiting = groupId;
    const runs = await waitForHandBack(database.prisma, groupId);
    for (const run of runs) {
      expect(run).toMatchObject({ failureClass: null, attempts: 0 });
      expect(run.errorMessage).toContain("Docker engine not reachable at unix:///nonexistent/docker.sock");
      expect(run.errorMessage).toMatch(/runs again in \d+ s/);
    }
    // each has its job again, scheduled for later
    const jobs = await database.prisma.$queryRawUnsafe<Array<{ run_at: Date }>>("select run_at from graphile_worker.jobs where task_identifier = 'validate-task'");
    expect(jobs).toHaveLength(2);
    const task = await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-1"].id } });
    expect(task).toMatchObject({ automatedVerdict: "PENDING" });
    const heartbeat = await waitFor("the worker's heartbeat", () => database.prisma.workerHeartbeat.findUnique({ where: { id: worker.workerId } }));
    expect(heartbeat).toMatchObject({ dockerOk: false, dockerInfo: expect.stringContaining("Docker engine not reachable") });
  });

  it.skipIf(!docker.ready)("a waiting validation runs once a worker with an engine is there", async () => {
    await worker.stop();
    worker = await startTestWorker(database.url, { config: { outageRetryMs: 500 } });
    const runs = await waitForGroup(database.prisma, waiting, 120_000);
    expect(runs.map((run) => [run.status, run.failureClass])).toEqual([
      ["SUCCEEDED", null],
      ["SUCCEEDED", null],
    ]);
    expect(await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-1"].id } })).toMatchObject({ automatedVerdict: "VALID" });
  });
});
