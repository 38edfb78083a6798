import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { startTestWorker, waitForGroup } from "../helpers/worker";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { requestValidation } from "@/lib/runs/request-validation";
import type { WorkerRunner } from "@/workers/runner";

// A database restart (or a proxy dropping idle connections) must not take a worker down.
describe("a worker whose database connections are dropped", () => {
  let database: TestDatabase;
  let worker: WorkerRunner;
  beforeAll(async () => {
    database = await createTestDatabase();
    worker = await startTestWorker(database.url, { docker: createDockerEngine({ DOCKER_HOST: "unix:///nonexistent/docker.sock" }) });
  });
  afterAll(async () => {
    await worker?.stop();
    await database?.drop();
  });

  it("keeps running and still takes jobs afterwards", async () => {
    const tasks = await loadDemoTasks(database.prisma);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await database.prisma.$executeRawUnsafe(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const { groupId } = await requestValidation(database.prisma, { taskId: tasks["demo__calc-1"].id, actorId: null });
    const runs = await waitForGroup(database.prisma, groupId, 30_000);
    expect(runs.every((run) => run.status === "FAILED" && run.failureClass === "INFRA_ERROR")).toBe(true);
  });
});
