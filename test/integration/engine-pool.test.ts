import { randomBytes } from "node:crypto";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { dockerForTests, dockerRequired } from "../helpers/docker";
import { canRunDockerd, ownDockerd, whyNoOwnDockerd } from "../helpers/own-dockerd";
import { skipBecause } from "../helpers/skips";
import { canRunRegistry, REGISTRY_BINARY, startOwnRegistry } from "../helpers/own-registry";
import { loadPoolTasks, POOL_TEST_LABEL } from "../helpers/pool-seed";
import { startTestWorker, waitFor } from "../helpers/worker";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { requestValidation } from "@/lib/runs/request-validation";
import { listWorkers } from "@/lib/worker-runtime/list-workers";
import type { WorkerRunner } from "@/workers/runner";

// Issue 16: two workers on two Docker engines — the shared one and one of the test's own —
// with a registry of the test's own between them. Twelve tasks are validated: the runs
// spread over both engines, each image is built once and pulled by the other engine, and
// a SIGKILL of the second engine's dockerd mid-run ends with every run finished on the
// first and nothing lost or misjudged. Three environments of four tasks each: the first
// runs queued already need one image on both engines at once (one builds, the other pulls),
// and every verdict the demo has appears in each environment; more environments only repeat that.

const docker = await dockerForTests();
const BASE_IMAGE = process.env.BASE_IMAGE || "swe-curator/python-base:bookworm";
const ENVIRONMENTS = 3;
if (docker.ready && dockerRequired() && (!canRunDockerd || !canRunRegistry)) {
  throw new Error(
    `The pool test needs root, dockerd and Docker's registry (${REGISTRY_BINARY}, Debian package docker-registry) on this machine`,
  );
}

const cannotPool = skipBecause(
  whyNoOwnDockerd,
  !canRunRegistry && `Docker's registry (${REGISTRY_BINARY}, Debian package docker-registry) is not installed`,
);

describe.skipIf(!docker.ready || cannotPool)("a pool of two engines sharing images through a registry", () => {
  const nonce = randomBytes(4).toString("hex");
  const sharedEngine = createDockerEngine();
  const secondEngine = ownDockerd();
  let registry: Awaited<ReturnType<typeof startOwnRegistry>>;
  let database: TestDatabase;
  let first: WorkerRunner;
  let second: WorkerRunner;
  // each worker's log, printed when a wait runs out: a pool that hangs must say where
  const logs: Record<string, string[]> = { first: [], second: [] };
  const logTo = (name: string) => (line: string) => logs[name].push(`${new Date().toISOString()} ${line}`);

  beforeAll(async () => {
    registry = await startOwnRegistry();
    await secondEngine.start();
    // the pool's base image lives in its registry: a fresh engine gets it from there
    await sharedEngine.pushImage(BASE_IMAGE, registry.host);
    database = await createTestDatabase();
    const config = { registryHost: registry.host, outageRetryMs: 1_000 };
    first = await startTestWorker(database.url, {
      config: { ...config, engineName: "shared engine" },
      log: logTo("first"),
    });
    second = await startTestWorker(database.url, {
      docker: createDockerEngine({ DOCKER_HOST: secondEngine.host }),
      config: { ...config, engineName: "second engine" },
      log: logTo("second"),
    });
  }, 300_000);

  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await database?.drop();
    await secondEngine.cleanup();
    await registry?.stop();
    // the images this run built on the shared engine
    const shared = new Docker();
    for (const image of await shared.listImages({ filters: { label: [`${POOL_TEST_LABEL}=${nonce}`] } })) {
      await shared
        .getImage(image.Id)
        .remove({ force: true })
        .catch(() => undefined);
    }
  }, 300_000);

  it("spreads the runs, builds each image once, and finishes everything on the first engine after the second is killed", async () => {
    const expected = await loadPoolTasks(database.prisma, nonce, ENVIRONMENTS);
    const tasks = await database.prisma.task.findMany({ where: { instanceId: { in: [...expected.keys()] } } });
    expect(tasks).toHaveLength(ENVIRONMENTS * 4);
    for (const task of tasks) await requestValidation(database.prisma, { taskId: task.id, actorId: null });

    // the second engine has finished work of its own and is in the middle of more: kill it
    await waitFor(
      "the second engine to have finished a run and be running another",
      async () => {
        const [done, running] = await Promise.all([
          database.prisma.validationRun.count({ where: { workerId: second.workerId, status: "SUCCEEDED" } }),
          database.prisma.validationRun.count({ where: { workerId: second.workerId, status: "RUNNING" } }),
        ]);
        return done > 0 && running > 0;
      },
      300_000,
      100,
    );
    const finishedBySecond = await database.prisma.validationRun.count({
      where: { workerId: second.workerId, status: "SUCCEEDED" },
    });
    await secondEngine.crash();

    const runs = await waitFor(
      "every run of the tasks to finish",
      async () => {
        const all = await database.prisma.validationRun.findMany({
          include: { task: { select: { instanceId: true } } },
        });
        return all.length === ENVIRONMENTS * 8 &&
          all.every((run) => run.status === "SUCCEEDED" || run.status === "FAILED" || run.status === "CANCELLED")
          ? all
          : null;
      },
      // the runs left on one engine after the kill: a busy two-core machine took over 480 s once for forty
      900_000,
      500,
    ).catch(async (error) => {
      const unfinished = await database.prisma.validationRun.findMany({
        where: { status: { notIn: ["SUCCEEDED", "FAILED", "CANCELLED"] } },
        include: { task: { select: { instanceId: true } } },
      });
      const rows = unfinished.map(
        (run) =>
          `${run.task.instanceId} ${run.kind} ${run.status}/${run.phase} worker=${run.workerId === first.workerId ? "first" : run.workerId === second.workerId ? "second" : run.workerId} outageRetries=${run.outageRetries} heartbeat=${run.heartbeatAt?.toISOString()} ${run.errorMessage ?? ""}`,
      );
      console.error(
        `unfinished runs:\n${rows.join("\n")}\nfirst worker's log:\n${logs.first.slice(-60).join("\n")}\nsecond worker's log:\n${logs.second.slice(-60).join("\n")}`,
      );
      throw error;
    });

    // nothing lost, nothing blamed on the engine that died
    expect(
      runs
        .filter((run) => run.status !== "SUCCEEDED")
        .map((run) => `${run.task.instanceId} ${run.kind}: ${run.status} ${run.errorMessage}`),
    ).toEqual([]);
    const verdicts = await database.prisma.task.findMany({
      where: { id: { in: tasks.map((task) => task.id) } },
      select: { instanceId: true, automatedVerdict: true, failureClass: true },
    });
    // the demo names a sound task's verdict (VALID) and a broken one's failure class
    for (const task of verdicts)
      expect(`${task.instanceId}: ${task.failureClass ?? task.automatedVerdict}`).toBe(
        `${task.instanceId}: ${expected.get(task.instanceId)}`,
      );

    // spread: both engines ran runs to the end
    expect(finishedBySecond).toBeGreaterThan(0);
    expect(runs.filter((run) => run.workerId === first.workerId).length).toBeGreaterThan(0);

    // each image built once in the pool; the other engine pulled instead of building
    const builds = await database.prisma.build.findMany({
      where: { status: "SUCCEEDED", revision: { environment: { key: { startsWith: `pool-${nonce}/` } } } },
    });
    const hashes = new Set(builds.map((build) => build.contextHash));
    expect(hashes.size).toBe(ENVIRONMENTS);
    for (const hash of hashes)
      expect(builds.filter((build) => build.contextHash === hash && !build.cacheHit)).toHaveLength(1);
    // an image pulled instead of built (a build on a fresh engine also pulls its base image first: that is not one)
    const pulled = builds.filter((build) => build.cacheHit && build.log?.includes("instead of building it"));
    expect(pulled.length).toBeGreaterThan(0);
    for (const build of pulled)
      expect(build.workerId).not.toBe(builds.find((b) => b.contextHash === build.contextHash && !b.cacheHit)?.workerId);

    // the Jobs page shows the second engine as down
    const workers = await listWorkers(database.prisma);
    expect(workers.find((worker) => worker.id === second.workerId)?.state).toBe("engine down");
    expect(workers.find((worker) => worker.id === first.workerId)?.engineName).toBe("shared engine");
  }, 1_500_000);
});
