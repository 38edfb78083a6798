import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { slowDownDemoCalc, spawnWorkerProcess, startTestWorker, waitFor, waitForGroup } from "../helpers/worker";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { LABEL_WORKER_ID } from "@/lib/docker/container-labels";
import { requestValidation } from "@/lib/runs/request-validation";
import type { DemoTask } from "@/lib/environments/load-demo-environments";

// A worker process SIGKILLed mid-run leaves RUNNING rows and running containers behind.
// Another worker must notice the expired lease, retry (or fail) the rows with a reason and
// remove the dead worker's containers.
const docker = await dockerForTests();

describe.skipIf(!docker.ready)("a worker killed mid-run", () => {
  let database: TestDatabase;
  let tasks: Record<string, DemoTask>;
  const engine = createDockerEngine();

  beforeAll(async () => {
    database = await createTestDatabase();
    tasks = await loadDemoTasks(database.prisma);
    // a slow eval script, so the kill lands while the tests run
    await slowDownDemoCalc(database.prisma, 4);
  });

  afterAll(async () => {
    await database?.drop();
  });

  async function startAndKillMidRun(instanceId: string) {
    const { child, output } = spawnWorkerProcess(database.url);
    const { groupId } = await requestValidation(database.prisma, { taskId: tasks[instanceId].id, actorId: null });
    const running = await waitFor(
      "the child worker to start both runs' containers",
      async () => {
        const runs = await database.prisma.validationRun.findMany({ where: { groupId } });
        return runs.every((run) => run.status === "RUNNING" && run.phase === "RUNNING_TESTS") ? runs : null;
      },
      60_000,
    ).catch((error) => {
      throw new Error(`${error.message}\nworker output:\n${output()}`);
    });
    const deadWorkerId = running[0].workerId!;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    const orphans = (await engine.listLabelledContainers()).filter((c) => c.labels[LABEL_WORKER_ID] === deadWorkerId);
    expect(orphans).toHaveLength(2);
    return { groupId, deadWorkerId };
  }

  it("its runs are retried by another worker after the lease expires, and its containers are removed", async () => {
    const { groupId, deadWorkerId } = await startAndKillMidRun("demo__calc-1");
    const rescuer = await startTestWorker(database.url);
    try {
      const runs = await waitForGroup(database.prisma, groupId, 60_000);
      for (const run of runs) {
        expect(run).toMatchObject({ status: "SUCCEEDED", attempts: 2, workerId: rescuer.workerId });
        expect(run.log).toContain("OPENSWE_EXIT_CODE=");
      }
      const task = await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-1"].id } });
      expect(task.automatedVerdict).toBe("VALID");
      expect((await engine.listLabelledContainers()).filter((c) => c.labels[LABEL_WORKER_ID] === deadWorkerId)).toEqual(
        [],
      );
    } finally {
      await rescuer.stop();
    }
  });

  it("after its last attempt a run is FAILED with the reason instead of staying RUNNING", async () => {
    const { groupId, deadWorkerId } = await startAndKillMidRun("demo__calc-2");
    const rescuer = await startTestWorker(database.url, { config: { maxRunAttempts: 1 } });
    try {
      const runs = await waitForGroup(database.prisma, groupId, 30_000);
      for (const run of runs) {
        expect(run).toMatchObject({ status: "FAILED", failureClass: "INFRA_ERROR" });
        expect(run.errorMessage).toMatch(
          new RegExp(`Worker ${deadWorkerId} stopped responding .*gave up after 1 attempts`),
        );
      }
      const task = await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-2"].id } });
      expect(task).toMatchObject({ automatedVerdict: "PENDING", failureClass: "INFRA_ERROR" });
      await waitFor("the dead worker's containers to be removed", async () =>
        (await engine.listLabelledContainers()).every((c) => c.labels[LABEL_WORKER_ID] !== deadWorkerId),
      );
    } finally {
      await rescuer.stop();
    }
  });
});
