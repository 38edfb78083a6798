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
    // each has its job again, scheduled for later (keyed by its run; the job that just handed it back loses its key and is gone once it returns)
    const jobs = await database.prisma.$queryRawUnsafe<Array<{ run_at: Date }>>(
      "select run_at from graphile_worker.jobs where task_identifier = 'validate-task' and key is not null",
    );
    expect(jobs).toHaveLength(2);
    const task = await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-1"].id } });
    expect(task).toMatchObject({ automatedVerdict: "PENDING" });
    const heartbeat = await waitFor("the worker's heartbeat", () =>
      database.prisma.workerHeartbeat.findUnique({ where: { id: worker.workerId } }),
    );
    expect(heartbeat).toMatchObject({
      dockerOk: false,
      dockerInfo: expect.stringContaining("Docker engine not reachable"),
    });
  });

  it("an engine that stays away: after its bounded outage retries the run fails as INFRA_ERROR with a sentence, and the task shows why", async () => {
    await worker.stop();
    // short waits so the eight hand-backs pass in seconds (20 ms doubling: about 5 s in all)
    worker = await startTestWorker(database.url, { docker: missing, config: { outageRetryMs: 20 } });
    const { groupId } = await requestValidation(database.prisma, { taskId: tasks["demo__calc-2"].id, actorId: null });
    const runs = await waitForGroup(database.prisma, groupId, 90_000);
    for (const run of runs) {
      expect(run).toMatchObject({ status: "FAILED", failureClass: "INFRA_ERROR", outageRetries: 8 });
      expect(run.errorMessage).toContain("Docker engine not reachable at unix:///nonexistent/docker.sock");
      expect(run.errorMessage).toMatch(/handed back 8 times over about \d+ minutes and the outage lasted/);
    }
    // no verdict from an infrastructure failure, but the task says what stopped it
    expect(await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-2"].id } })).toMatchObject({
      automatedVerdict: "PENDING",
      failureClass: "INFRA_ERROR",
    });
  });

  it.skipIf(!docker.ready)("a waiting validation runs once a worker with an engine is there", async () => {
    await worker.stop();
    worker = await startTestWorker(database.url, { config: { outageRetryMs: 500 } });
    const runs = await waitForGroup(database.prisma, waiting, 120_000);
    expect(runs.map((run) => [run.status, run.failureClass])).toEqual([
      ["SUCCEEDED", null],
      ["SUCCEEDED", null],
    ]);
    expect(await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-1"].id } })).toMatchObject({
      automatedVerdict: "VALID",
    });
  });
});
