import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DemoTask } from "@/lib/environments/load-demo-environments";
import { LABEL_WORKER_ID } from "@/lib/docker/container-labels";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { listWorkers } from "@/lib/worker-runtime/list-workers";
import { requestValidation } from "@/lib/runs/request-validation";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { slowDownDemoCalc, spawnWorkerProcess, stopProcess, waitFor, waitForGroup } from "../helpers/worker";

// Issue 11 item 4: two worker processes take jobs from one queue. No run executes twice;
// when one worker is killed its run moves to the survivor, the reason stays in the run's
// history, its container is removed and its heartbeat row leaves the list.
const docker = await dockerForTests();

describe.skipIf(!docker.ready)("two workers on one queue", () => {
  let database: TestDatabase;
  let tasks: Record<string, DemoTask>;
  const workers: Array<{ child: ChildProcess; output(): string }> = [];
  const engine = createDockerEngine();
  const outputs = () => workers.map((w, i) => `--- worker ${i}\n${w.output()}`).join("\n");

  beforeAll(async () => {
    database = await createTestDatabase();
    tasks = await loadDemoTasks(database.prisma);
    await slowDownDemoCalc(database.prisma, 4);
    for (let i = 0; i < 2; i++)
      workers.push(spawnWorkerProcess(database.url, { WORKER_CONCURRENCY: "1", WORKER_FORGET_AFTER_MS: "5000" }));
    await waitFor("both workers to beat", async () => (await database.prisma.workerHeartbeat.count()) === 2, 60_000);
  });

  afterAll(async () => {
    for (const worker of workers) await stopProcess(worker.child);
    await database?.drop();
  });

  it("runs each run once, and hand a killed worker's run to the survivor", async () => {
    const { groupId } = await requestValidation(database.prisma, { taskId: tasks["demo__calc-1"].id, actorId: null });
    // one run each (concurrency 1): both are in their tests at once
    const running = await waitFor(
      "each worker to run one of the two runs",
      async () => {
        const runs = await database.prisma.validationRun.findMany({ where: { groupId } });
        const inTests = runs.filter((run) => run.status === "RUNNING" && run.phase === "RUNNING_TESTS");
        return inTests.length === 2 && new Set(inTests.map((run) => run.workerId)).size === 2 ? inTests : null;
      },
      90_000,
    ).catch((error) => {
      throw new Error(`${error.message}\n${outputs()}`);
    });
    // which worker is which, by process id: wait for both rows (a busy worker's row can be missing for a moment)
    const [victim, survivor] = await waitFor("a heartbeat row of each running worker", async () => {
      const heartbeats = await database.prisma.workerHeartbeat.findMany({
        where: { id: { in: running.map((run) => run.workerId!) } },
      });
      const pair = [0, 1].map((i) => heartbeats.find((h) => h.pid === workers[i].child.pid));
      return pair[0] && pair[1] ? [pair[0], pair[1]] : null;
    });
    const victimRun = running.find((run) => run.workerId === victim.id)!;
    const survivorRun = running.find((run) => run.workerId === survivor.id)!;
    await stopProcess(workers[0].child, "SIGKILL");

    const runs = await waitForGroup(database.prisma, groupId, 120_000).catch((error) => {
      throw new Error(`${error.message}\n${outputs()}`);
    });
    const byId = new Map(runs.map((run) => [run.id, run]));
    // the survivor's own run ran once; the victim's ran again on the survivor
    expect(byId.get(survivorRun.id)).toMatchObject({ status: "SUCCEEDED", attempts: 1, workerId: survivor.id });
    expect(byId.get(victimRun.id)).toMatchObject({ status: "SUCCEEDED", attempts: 2, workerId: survivor.id });
    for (const run of runs) {
      // every attempt announces itself once in the live log: no run executed more often than its attempts
      const chunks = await database.prisma.logChunk.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
      const starts =
        chunks
          .map((chunk) => chunk.content)
          .join("")
          .match(/\[swe-curator\] (reusing|built) image/g) ?? [];
      expect(starts.length, run.id).toBeLessThanOrEqual(run.attempts);
    }
    const task = await database.prisma.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-1"].id } });
    expect(task.automatedVerdict).toBe("VALID");

    // why the victim's run ran twice stays in its history, though its final record is clean
    const history = await database.prisma.auditEvent.findMany({
      where: { entityType: "validation_run", entityId: victimRun.id, action: "requeued" },
    });
    expect(history).toHaveLength(1);
    expect(history[0].after).toMatchObject({
      workerId: victim.id,
      reason: expect.stringContaining(`Worker ${victim.id} stopped responding`),
    });

    // the dead worker's container is gone, and so, after a while, is its row in the list
    expect((await engine.listLabelledContainers()).filter((c) => c.labels[LABEL_WORKER_ID] === victim.id)).toEqual([]);
    await waitFor(
      "the dead worker to leave the list",
      async () => {
        const listed = await listWorkers(database.prisma);
        return listed.length === 1 && listed[0].id === survivor.id;
      },
      30_000,
    );
    expect(
      await database.prisma.$queryRawUnsafe<unknown[]>("select id from graphile_worker.jobs where locked_at is null"),
    ).toEqual([]);
  });
});
