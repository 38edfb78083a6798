import { randomBytes } from "node:crypto";
import Docker from "dockerode";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { freePort } from "../helpers/free-port";
import { loadPoolTasks, POOL_TEST_LABEL } from "../helpers/pool-seed";
import { startTestWorker, waitFor, waitForGroup, waitForHandBack } from "../helpers/worker";
import { listWorkers } from "@/lib/worker-runtime/list-workers";
import { requestValidation } from "@/lib/runs/request-validation";
import type { WorkerRunner } from "@/workers/runner";

// Issue 16's rules for one engine of a pool, on the shared engine: a registry that does not
// answer makes a run wait with a sentence (the task is not blamed); a drained worker takes
// nothing new until the drain is lifted; a run larger than the engine's memory budget is
// refused with a sentence instead of starting.

const docker = await dockerForTests();

describe.skipIf(!docker.ready)("the pool's rules on one engine", () => {
  const nonce = randomBytes(4).toString("hex");
  let database: TestDatabase;
  let worker: WorkerRunner | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(async () => {
    await database?.drop();
    const shared = new Docker();
    for (const image of await shared.listImages({ filters: { label: [`${POOL_TEST_LABEL}=${nonce}`] } }))
      await shared
        .getImage(image.Id)
        .remove({ force: true })
        .catch(() => undefined);
  });

  /** Waits until the worker has written `count` heartbeats after `since`: it has read everything set before `since`. */
  async function beatsAfter(workerId: string, since: Date, count: number) {
    for (let i = 0; i < count; i++) {
      const row = await waitFor(`worker ${workerId} to beat after ${since.toISOString()}`, () =>
        database.prisma.workerHeartbeat.findFirst({ where: { id: workerId, lastSeenAt: { gt: since } } }),
      );
      since = row.lastSeenAt;
    }
  }

  /** Drains a worker (or lifts its drain) and waits until the worker itself has read it, as a heartbeat does. */
  async function drain(workerId: string, drainRequested: boolean) {
    await database.prisma.workerHeartbeat.update({ where: { id: workerId }, data: { drainRequested } });
    await beatsAfter(workerId, new Date(), 2);
    const state = (await listWorkers(database.prisma)).find((row) => row.id === workerId)?.state;
    if (drainRequested) expect(state).toBe("drained");
    else expect(state).not.toMatch(/drain/);
  }

  it("hands a run back with a sentence when the registry does not answer, without failing the task", async () => {
    const closedPort = await freePort();
    worker = await startTestWorker(database.url, {
      // the product's lease: with the tests' 3 s one, a heartbeat starved on a busy machine handed the
      // run back as "stopped responding" before the registry's silence could be the reason
      config: { registryHost: `127.0.0.1:${closedPort}`, outageRetryMs: 600_000, leaseMs: 30_000 },
    });
    const expected = await loadPoolTasks(database.prisma, nonce, 1);
    const task = await database.prisma.task.findUniqueOrThrow({ where: { instanceId: [...expected.keys()][0] } });
    const { groupId } = await requestValidation(database.prisma, { taskId: task.id, actorId: null });

    const runs = await waitForHandBack(database.prisma, groupId, 120_000);
    for (const run of runs) {
      expect(run.errorMessage).toContain(`the image registry at 127.0.0.1:${closedPort} did not answer`);
      expect(run.attempts).toBe(0);
    }
    expect((await database.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).automatedVerdict).toBe("PENDING");
  }, 180_000);

  it("a drained engine takes no new work while another engine runs it all, and no run is lost; lifted, it works again", async () => {
    worker = await startTestWorker(database.url);
    const other = await startTestWorker(database.url);
    try {
      const tasks = await loadDemoTasks(database.prisma);
      await drain(worker.workerId, true);

      const first = await requestValidation(database.prisma, { taskId: tasks["demo__calc-1"].id, actorId: null });
      const ranElsewhere = await waitForGroup(database.prisma, first.groupId, 180_000);
      expect(ranElsewhere.map((run) => [run.status, run.workerId])).toEqual([
        ["SUCCEEDED", other.workerId],
        ["SUCCEEDED", other.workerId],
      ]);
      await other.stop();

      // with no other engine, the drained one still takes nothing: it looked twice after the runs were queued
      const second = await requestValidation(database.prisma, { taskId: tasks["demo__calc-2"].id, actorId: null });
      await beatsAfter(worker.workerId, new Date(), 2);
      const waiting = await database.prisma.validationRun.findMany({ where: { groupId: second.groupId } });
      expect(waiting.map((run) => [run.status, run.workerId, run.attempts])).toEqual([
        ["QUEUED", null, 0],
        ["QUEUED", null, 0],
      ]);

      await drain(worker.workerId, false);
      const runs = await waitForGroup(database.prisma, second.groupId, 180_000);
      expect(runs.map((run) => [run.status, run.workerId])).toEqual([
        ["SUCCEEDED", worker.workerId],
        ["SUCCEEDED", worker.workerId],
      ]);
    } finally {
      await other.stop();
    }
  }, 420_000);

  it("refuses to start a container larger than the engine's memory budget, saying so", async () => {
    worker = await startTestWorker(database.url, { config: { memoryBudgetBytes: 64 * 1024 * 1024 } });
    const tasks = await loadDemoTasks(database.prisma).catch(async () => {
      const rows = await database.prisma.task.findMany({ where: { instanceId: { startsWith: "demo__" } } });
      return Object.fromEntries(rows.map((row) => [row.instanceId, row]));
    });
    const { groupId } = await requestValidation(database.prisma, { taskId: tasks["demo__calc-1"].id, actorId: null });
    const runs = await waitFor(
      "the runs to be refused",
      async () => {
        const rows = await database.prisma.validationRun.findMany({ where: { groupId } });
        return rows.every((run) => run.status === "FAILED") ? rows : null;
      },
      180_000,
    );
    for (const run of runs) {
      expect(run.failureClass).toBe("INFRA_ERROR");
      expect(run.errorMessage).toMatch(/needs 2048 MB but the engine at .* may give containers 64 MB in all/);
      expect(run.containerId).toBeNull();
    }
  }, 240_000);
});
