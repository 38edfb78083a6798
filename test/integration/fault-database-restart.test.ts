import type { ChildProcess } from "node:child_process";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, disconnectSharedPrisma, type PrismaClient } from "@/lib/db/client";
import type { DemoTask } from "@/lib/environments/load-demo-environments";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { startOwnPostgres, type OwnPostgres } from "../helpers/own-postgres";
import { apiTokenFor, callRoute } from "../helpers/route-call";
import { slowDownDemoCalc, spawnWorkerProcess, stopProcess, waitFor, waitForGroup } from "../helpers/worker";

// Issue 11 item 1: PostgreSQL stops and starts again (by its pid) under a running worker
// process and the web's route handlers. Requests during the outage answer 503; both recover
// without a restart; a run that met the outage is retried, not failed; nothing committed
// before the outage is lost. The test runs its own PostgreSQL, never the shared one.
const docker = await dockerForTests();

describe.skipIf(!docker.ready)("PostgreSQL restarts under a running worker and web server", () => {
  let postgres: OwnPostgres;
  let db: PrismaClient;
  let tasks: Record<string, DemoTask>;
  let worker: ChildProcess;
  let workerOutput: () => string;
  let curator: { token: string };
  let routes: {
    runs: typeof import("@/app/api/v1/runs/route");
    tasks: typeof import("@/app/api/v1/tasks/route");
    jobs: typeof import("@/app/api/v1/jobs/route");
    decisions: typeof import("@/app/api/v1/decisions/route");
  };

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    // the route handlers' shared client follows DATABASE_URL: point it at our server
    await disconnectSharedPrisma();
    process.env.DATABASE_URL = postgres.url;
    db = createPrismaClient(postgres.url, 3);
    tasks = await loadDemoTasks(db);
    curator = await apiTokenFor(db, "CURATOR");
    // a slow eval script, so the outage lands while the container runs
    await slowDownDemoCalc(db, 3);
    routes = {
      runs: await import("@/app/api/v1/runs/route"),
      tasks: await import("@/app/api/v1/tasks/route"),
      jobs: await import("@/app/api/v1/jobs/route"),
      decisions: await import("@/app/api/v1/decisions/route"),
    };
    const spawned = spawnWorkerProcess(postgres.url, { WORKER_LEASE_MS: "3000", WORKER_OUTAGE_RETRY_MS: "1000" });
    worker = spawned.child;
    workerOutput = spawned.output;
  });

  afterAll(async () => {
    await stopProcess(worker);
    await db?.$disconnect();
    await disconnectSharedPrisma().catch(() => {});
    await postgres?.close();
  });

  it("answers 503 during the outage, then retries the interrupted runs and loses nothing", async () => {
    // a decision before the outage
    const decidedTask = tasks["demo__calc-2"].id;
    const { version } = await db.task.findUniqueOrThrow({ where: { id: decidedTask }, select: { version: true } });
    const decision = await callRoute(routes.decisions.POST, curator.token, "/api/v1/decisions", {
      method: "POST",
      body: {
        taskId: decidedTask,
        verdict: "NEEDS_CHANGES",
        reasons: ["OTHER"],
        comment: "decided before the outage",
        version,
      },
    });
    expect(decision.status).toBe(201);

    const requested = await callRoute(routes.runs.POST, curator.token, "/api/v1/runs", {
      method: "POST",
      body: { taskId: tasks["demo__calc-1"].id },
    });
    expect(requested.status).toBe(202);
    const { groupId } = await requested.json();
    const running = await waitFor(
      "both runs to be running their tests",
      async () => {
        const runs = await db.validationRun.findMany({ where: { groupId } });
        return runs.length === 2 &&
          runs.every((run) => run.status === "RUNNING" && run.phase === "RUNNING_TESTS" && run.containerId)
          ? runs
          : null;
      },
      90_000,
    ).catch((error) => {
      throw new Error(`${error.message}\nworker output:\n${workerOutput()}`);
    });

    await postgres.kill("SIGINT");
    // requests during the outage: a 503 saying so, at once, not a hang or a 500
    for (const [handler, url] of [
      [routes.tasks.GET, "/api/v1/tasks"],
      [routes.jobs.GET, "/api/v1/jobs"],
    ] as const) {
      const response = await callRoute(handler, curator.token, url);
      expect(response.status, url).toBe(503);
      expect(JSON.stringify(await response.json())).toMatch(/database is not answering/i);
    }
    // the containers finish (sleep 3) while the database is away: their results cannot be stored
    const engine = new Docker();
    await waitFor("the runs' containers to finish while the database is away", async () => {
      const states = await Promise.all(
        running.map((run) =>
          engine
            .getContainer(run.containerId!)
            .inspect()
            .then(
              (info) => info.State.Running,
              () => false,
            ),
        ),
      );
      return states.every((stillRunning) => !stillRunning);
    });
    await postgres.restart();
    const restartedAt = new Date();

    // the web recovers without a restart
    await waitFor(
      "the task list to answer again",
      async () => (await callRoute(routes.tasks.GET, curator.token, "/api/v1/tasks")).status === 200,
      15_000,
    );

    // the worker recovers too: the interrupted runs are retried, not failed, each stored once
    const runs = await waitForGroup(db, groupId, 120_000).catch((error) => {
      throw new Error(`${error.message}\nworker output:\n${workerOutput()}`);
    });
    for (const run of runs) {
      expect(run, `${run.kind}: ${run.errorMessage}\n${workerOutput()}`).toMatchObject({
        status: "SUCCEEDED",
        failureClass: null,
        attempts: 1,
      });
      expect(run.log).toContain("OPENSWE_EXIT_CODE=");
      const names = run.testResults.map((result) => result.testId);
      expect(new Set(names).size).toBe(names.length);
      // why it ran again stays in its history
      const history = await db.auditEvent.findMany({
        where: { entityType: "validation_run", entityId: run.id, action: "requeued" },
      });
      expect(history.map((event) => JSON.stringify(event.after))).toEqual([
        expect.stringMatching(/database was unavailable/),
      ]);
    }
    const task = await db.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-1"].id } });
    expect(task.automatedVerdict).toBe("VALID");
    // no job lost or left behind
    expect(await db.$queryRawUnsafe<unknown[]>("select id from graphile_worker.jobs")).toEqual([]);

    // nothing committed before the outage is lost
    const decisions = await db.curationDecision.findMany({ where: { taskId: decidedTask } });
    expect(decisions.map((d) => d.comment)).toEqual(["decided before the outage"]);

    // the worker process is still the same one, alive and heart-beating
    expect(worker.exitCode).toBeNull();
    await waitFor("the worker's heartbeat after the restart", async () => {
      const rows = await db.workerHeartbeat.findMany();
      return rows.length === 1 && rows[0].lastSeenAt > restartedAt;
    });
  });
});
