import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { canRunDockerd, ownDockerd } from "../helpers/own-dockerd";
import { reviseRecipe, startTestWorker, waitFor, waitForGroup } from "../helpers/worker";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { requestValidation } from "@/lib/runs/request-validation";
import type { WorkerRunner } from "@/workers/runner";

// Issue 27.6: the Docker engine is stopped under a running control and started again seconds
// later — too soon for the engine watch to see it missing. The control's tests would finish
// well inside its limit, so nothing about this run is a TIMEOUT: the attempt is the engine's
// fault (INFRA_ERROR, in the daemon's words), handed back, and retried to the right verdict.

const docker = await dockerForTests();
const BASE_IMAGE = process.env.BASE_IMAGE || "swe-curator/python-base:bookworm";
const LIMIT_SECONDS = 600;

if (docker.ready && !canRunDockerd)
  console.warn("[skip] the engine-restart test needs root and dockerd, to start an engine of its own");

describe.skipIf(!docker.ready || !canRunDockerd)(
  "when the Docker engine restarts under a running control (own dockerd)",
  () => {
    const engine = ownDockerd();
    let database: TestDatabase;
    let worker: WorkerRunner;
    let tasks: Awaited<ReturnType<typeof loadDemoTasks>>;

    beforeAll(async () => {
      await engine.start();
      engine.loadFromSharedEngine(BASE_IMAGE);
      database = await createTestDatabase();
      worker = await startTestWorker(database.url, { docker: createDockerEngine({ DOCKER_HOST: engine.host }) });
      tasks = await loadDemoTasks(database.prisma);
    }, 300_000);

    afterAll(async () => {
      await worker?.stop();
      await database?.drop();
      await engine.cleanup();
    });

    // dockerd stops the container on its way down and is started again seconds later. (A dockerd killed
    // with SIGKILL leaves a wait that never settles; the container watch for that case is tested in
    // test/unit/container-wait-watch.test.ts, since a dockerd restarted after a SIGKILL here does not come back.)
    it("records an attempt lost to an engine stopped and started again as INFRA_ERROR with the engine's words, retries it, and reaches the right verdict", async () => {
      const task = tasks["demo__calc-1"];
      // tests that take a few seconds, far inside the limit: long enough to restart the engine under them
      await reviseRecipe(
        database.prisma,
        task.environmentId,
        { evalScript: (script) => `sleep 15\n${script}` },
        "a few seconds",
      );
      await database.prisma.environment.update({
        where: { id: task.environmentId },
        data: { timeoutSeconds: LIMIT_SECONDS },
      });

      const { groupId } = await requestValidation(database.prisma, { taskId: task.id, actorId: null });
      const running = await waitFor(
        "a control's tests to be running",
        () => database.prisma.validationRun.findFirst({ where: { groupId, phase: "RUNNING_TESTS" } }),
        180_000,
      );
      await engine.stop();
      await engine.start();

      const runs = await waitForGroup(database.prisma, groupId, 300_000);
      const lost = runs.find((run) => run.id === running.id)!;
      // the right verdict: every control ran to the end on the healthy engine, nothing was a timeout
      expect(runs.map((run) => [run.kind, run.status, run.failureClass])).toEqual(
        runs.map((run) => [run.kind, "SUCCEEDED", null]),
      );
      expect((await database.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).automatedVerdict).toBe("VALID");
      // the lost attempt: handed back as the engine's fault, not spent as an attempt, in its history as INFRA_ERROR
      expect(lost.attempts).toBe(1);
      expect(lost.outageRetries).toBeGreaterThanOrEqual(1);
      const history = await database.prisma.auditEvent.findMany({
        where: { entityType: "validation_run", entityId: lost.id, action: "requeued" },
        orderBy: { createdAt: "asc" },
      });
      const first = history[0]?.after as { reason?: string; failureClass?: string } | undefined;
      expect(first?.failureClass).toBe("INFRA_ERROR");
      expect(first?.reason).toMatch(
        new RegExp(
          `The Docker engine at ${engine.host.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} stopped the container before the tests finished \\(.+\\)`,
        ),
      );
      expect(first?.reason).not.toMatch(/wall-clock|TIMEOUT/i);
    });
  },
);
