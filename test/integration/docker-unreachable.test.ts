import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { startTestWorker, waitFor, waitForGroup } from "../helpers/worker";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { requestValidation } from "@/lib/runs/request-validation";
import type { WorkerRunner } from "@/workers/runner";

// No Docker engine at all: this needs none, so it runs everywhere.
describe("when no Docker engine answers", () => {
  let database: TestDatabase;
  let worker: WorkerRunner;
  const missing = createDockerEngine({ DOCKER_HOST: "unix:///nonexistent/docker.sock" });

  beforeAll(async () => {
    database = await createTestDatabase();
    worker = await startTestWorker(database.url, { docker: missing });
  });

  afterAll(async () => {
    await worker?.stop();
    await database?.drop();
  });

  it("validations fail as INFRA_ERROR naming the endpoint, the verdict waits, and the worker says so in its heartbeat", async () => {
    const tasks = await loadDemoTasks(database.prisma);
    const { groupId } = await requestValidation(database.prisma, { taskId: tasks["demo__calc-1"].id, actorId: null });
    const runs = await waitForGroup(database.prisma, groupId);
    for (const run of runs) {
      expect(run).toMatchObject({ status: "FAILED", failureClass: "INFRA_ERROR" });
      expect(run.errorMessage).toContain("Docker engine not reachable at unix:///nonexistent/docker.sock");
    }
    const task = await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-1"].id } });
    expect(task).toMatchObject({ automatedVerdict: "PENDING", failureClass: "INFRA_ERROR" });
    const heartbeat = await waitFor("the worker's heartbeat", () => database.prisma.workerHeartbeat.findUnique({ where: { id: worker.workerId } }));
    expect(heartbeat).toMatchObject({ dockerOk: false, dockerInfo: expect.stringContaining("Docker engine not reachable") });
  });
});
