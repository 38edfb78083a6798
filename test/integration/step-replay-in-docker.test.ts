import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { DEMO_DIR, loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { startTestWorker, waitFor, IN_PROCESS_IMPORT_LEASE } from "../helpers/worker";
import { importFile } from "@/lib/imports/import-file";
import { LABEL_REPLAY_ID } from "@/lib/docker/container-labels";
import { requestStepReplay } from "@/lib/trajectories/replay/request-step-replay";
import { getStepReplay } from "@/lib/trajectories/replay/read-step-replays";
import type { WorkerRunner } from "@/workers/runner";
import type { DemoTask } from "@/lib/environments/load-demo-environments";

// Replaying a trajectory's steps for real: the seed's demo trajectory on demo__calc-1 runs in
// the demo environment's image (built once, as validation builds it) on this machine's engine.
const docker = await dockerForTests();

describe.skipIf(!docker.ready)("step replay in real containers", () => {
  let database: TestDatabase;
  let worker: WorkerRunner;
  let tasks: Record<string, DemoTask>;
  let demoTrajectoryId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    tasks = await loadDemoTasks(database.prisma);
    await importFile(database.prisma, path.join(DEMO_DIR, "agents", "demo__calc-1.traj"));
    demoTrajectoryId = (
      await database.prisma.trajectory.findFirstOrThrow({ where: { taskId: tasks["demo__calc-1"].id } })
    ).id;
    await database.prisma.environment.update({
      where: { key: "demo/calc@short-timeout" },
      data: { timeoutSeconds: 3 },
    });
    worker = await startTestWorker(database.url, { config: IN_PROCESS_IMPORT_LEASE });
  });

  afterAll(async () => {
    await worker?.stop();
    await database?.drop();
  });

  const finished = (id: string) =>
    waitFor(
      `replay ${id} to finish`,
      async () => {
        const replay = await getStepReplay(database.prisma, id);
        return replay.status === "SUCCEEDED" || replay.status === "FAILED" ? replay : null;
      },
      180_000,
    );

  it("replays commands and edits up to a step: a true recording matches, the doctored one is marked different", async () => {
    const { id } = await requestStepReplay(database.prisma, {
      trajectoryId: demoTrajectoryId,
      stepIndex: 5,
      actorId: null,
    });
    const replay = await finished(id);
    expect(replay).toMatchObject({ status: "SUCCEEDED", errorMessage: null, actionsTotal: 6, actionsDone: 6 });
    const outcomes = Object.fromEntries(replay.results!.map((step) => [step.index, step.outcome]));
    // ls, grep, create (a write), run, str_replace (an edit in the container), run again (doctored)
    expect(outcomes).toEqual({ 0: "same", 1: "same", 2: "applied", 3: "same", 4: "applied", 5: "different" });
    const doctored = replay.results!.find((step) => step.index === 5)!;
    expect(doctored.replayed).toBe("ValueError mean() of an empty sequence\n");
    expect(doctored.recorded).toContain("mean() of an empty list");
    // the replay ran the edit of step 5: before it, the same script crashed with ZeroDivisionError
    expect(replay.results!.find((step) => step.index === 3)!.replayed).toBe("ZeroDivisionError division by zero\n");
  });

  it("a step beyond the time limit ends with a readable reason, in a container without network", async () => {
    const trajectory = await database.prisma.trajectory.create({
      data: {
        externalId: "replay-timeout-test",
        taskId: tasks["demo__calc-5"].id,
        role: "SOLVER",
        format: "SWE_AGENT",
        stepCount: 2,
        steps: {
          create: [
            { index: 0, action: "ls /sys/class/net", observation: "lo\n", kind: "READ" },
            { index: 1, action: "sleep 60", observation: "", kind: "RUN" },
          ],
        },
      },
    });
    const { id } = await requestStepReplay(database.prisma, {
      trajectoryId: trajectory.id,
      stepIndex: 1,
      actorId: null,
    });
    const engine = new Docker();
    const networkMode = await waitFor(
      "the replay's container",
      async () => {
        const [container] = await engine.listContainers({
          all: true,
          filters: { label: [`${LABEL_REPLAY_ID}=${id}`] },
        });
        if (!container) return null;
        // created but already removed between the two calls: look again
        const inspected = await engine
          .getContainer(container.Id)
          .inspect()
          .catch(() => null);
        if (!inspected) return null;
        return {
          mode: inspected.HostConfig.NetworkMode,
          disabled: (inspected.Config as { NetworkDisabled?: boolean }).NetworkDisabled,
          networks: Object.keys(inspected.NetworkSettings.Networks),
        };
      },
      180_000,
      100,
    );
    expect(networkMode.mode).toBe("none");
    expect(networkMode).toMatchObject({ disabled: true, networks: [] });
    const replay = await finished(id);
    expect(replay.status).toBe("FAILED");
    expect(replay.errorMessage).toBe(
      "The replay stopped at step 2 (1 of 2 actions done): the replay reached the environment's time limit of 3 s during this step. The steps before it are shown.",
    );
    // inside, only the loopback interface: the recorded "lo" matches
    expect(replay.results!.map((step) => step.outcome)).toEqual(["same", "timed-out"]);
  });
});
