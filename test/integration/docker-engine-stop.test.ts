import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { ownDockerd, whyNoOwnDockerd } from "../helpers/own-dockerd";
import { skipBecause } from "../helpers/skips";
import { reviseRecipe, startTestWorker, waitFor, waitForGroup } from "../helpers/worker";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { LABEL_MANAGED } from "@/lib/docker/container-labels";
import { requestValidation } from "@/lib/runs/request-validation";
import type { WorkerRunner } from "@/workers/runner";

// Issue 11.2: the Docker engine stops while a validation runs. This starts its OWN dockerd
// (own socket, data root, exec root and pidfile), never touching the shared engine, loads
// the base image into it, points a worker at it, and stops and starts it mid-run. The run
// follows the one outage policy (lib/worker-runtime/retry-after-outage.ts): handed back to
// the queue with a reason, without spending an attempt, and run again once the engine is back.

const docker = await dockerForTests();
const BASE_IMAGE = process.env.BASE_IMAGE || "swe-curator/python-base:bookworm";
describe.skipIf(!docker.ready || skipBecause(whyNoOwnDockerd))(
  "when the Docker engine stops mid-validation (own dockerd)",
  () => {
    const engine = ownDockerd();
    let database: TestDatabase;
    let worker: WorkerRunner;

    beforeAll(async () => {
      await engine.start();
      engine.loadFromSharedEngine(BASE_IMAGE);
      database = await createTestDatabase();
      worker = await startTestWorker(database.url, { docker: createDockerEngine({ DOCKER_HOST: engine.host }) });
    }, 300_000);

    afterAll(async () => {
      await worker?.stop();
      await database?.drop();
      await engine.stop();
      await engine.cleanup();
    });

    it("never blames the recipe for the stopped engine: the run is handed back with a reason, retried once the engine is back, and succeeds", async () => {
      const tasks = await loadDemoTasks(database.prisma);
      const task = tasks["demo__calc-1"];
      // a test run that would never end, so the engine stops it for sure
      const { current, revision } = await reviseRecipe(
        database.prisma,
        task.environmentId,
        { evalScript: (script) => `sleep 600\n${script}` },
        "slow",
      );

      const { groupId } = await requestValidation(database.prisma, { taskId: task.id, actorId: null });
      await waitFor(
        "a run's tests to be running",
        () => database.prisma.validationRun.findFirst({ where: { groupId, phase: "RUNNING_TESTS" } }),
        120_000,
      );
      await engine.stop();

      // while the engine is down nothing is judged: the interrupted run waits on the queue with a sentence saying why
      const handedBack = await waitFor(
        "the interrupted run to be handed back",
        () =>
          database.prisma.validationRun.findFirst({ where: { groupId, status: "QUEUED", outageRetries: { gte: 1 } } }),
        60_000,
      );
      expect(handedBack.errorMessage).toMatch(/Docker engine .*(stopped the container|not reachable)/);
      expect(handedBack.errorMessage).toMatch(
        /runs again in \d+ s \(outage retry \d+ of \d+; this does not count as an attempt\)/,
      );
      const during = await database.prisma.validationRun.findMany({ where: { groupId } });
      expect(during.filter((run) => run.status === "SUCCEEDED" || run.status === "FAILED")).toEqual([]);

      // the retry must be able to finish: the recipe's script loses its sleep (the run re-reads its revision)
      await database.prisma.environmentRevision.update({
        where: { id: revision.id },
        data: { evalScript: current.evalScript },
      });
      await engine.start();
      const runs = await waitForGroup(database.prisma, groupId, 180_000);
      expect(runs.map((run) => [run.status, run.failureClass])).toEqual(runs.map(() => ["SUCCEEDED", null]));
      // an outage is not the recipe's fault: no attempt spent on it, but the hand-back is counted and kept in the run's history
      expect(runs.map((run) => run.attempts)).toEqual(runs.map(() => 1));
      expect(Math.max(...runs.map((run) => run.outageRetries))).toBeGreaterThanOrEqual(1);
      const history = await database.prisma.auditEvent.findMany({
        where: { entityType: "validation_run", entityId: handedBack.id, action: "requeued" },
      });
      expect(history.map((event) => (event.after as { reason: string }).reason)).toContainEqual(
        expect.stringMatching(/Docker engine/),
      );
      const judged = await database.prisma.task.findUniqueOrThrow({ where: { id: task.id } });
      expect(judged.automatedVerdict).toBe("VALID");

      const leftovers = await engine.client.listContainers({
        all: true,
        filters: { label: [`${LABEL_MANAGED}=true`] },
      });
      expect(leftovers).toEqual([]);
    });
  },
);
