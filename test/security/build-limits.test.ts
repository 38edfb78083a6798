import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { skipBecause } from "../helpers/skips";
import { reviseRecipe, startTestWorker, waitFor, waitForBuild } from "../helpers/worker";
import { cancelBuild } from "@/lib/builds/cancel-build";
import { requestBuild } from "@/lib/builds/request-build";
import type { WorkerRunner } from "@/workers/runner";
import { serverConfig } from "@/lib/config/server-config";

// Issue 10.2: build steps get the limits validation containers get — pids (through the
// build's parent cgroup), CPU, memory, a disk cap, the time limit and cancel. Each attack is
// a RUN step of a real build run by a real worker.

const docker = await dockerForTests();
const engineInfo = docker.ready ? await new Docker().info() : null;
const cgroupV2 = engineInfo?.CgroupVersion === "2";
// where lib/docker/build-cgroup.ts makes each build's parent: the pids hierarchy on cgroup v1, the unified tree on v2
const BUILD_CGROUPS = path.join(serverConfig().SWE_CURATOR_CGROUP_ROOT, cgroupV2 ? "" : "pids", "swe-curator-builds");
const PIDS = 64;
const MEMORY_MB = 512;
// the attack steps that end by themselves take up to ~10 s on a busy two-core machine: well inside it
const BUILD_TIMEOUT_SECONDS = 25;
const cannotLimitBuilds = skipBecause(
  engineInfo &&
    engineInfo.CgroupDriver !== "cgroupfs" &&
    `the Docker engine uses the ${engineInfo.CgroupDriver} cgroup driver; build cgroups need cgroupfs`,
  process.getuid?.() !== 0 && "making a build's parent cgroup needs root",
);

/** pids.current of every build cgroup there is right now. */
function buildCgroupPids(): Map<string, number> {
  const seen = new Map<string, number>();
  if (!existsSync(BUILD_CGROUPS)) return seen;
  for (const key of readdirSync(BUILD_CGROUPS)) {
    const file = path.join(BUILD_CGROUPS, key, "pids.current");
    if (existsSync(file)) seen.set(key, Number(readFileSync(file, "utf8")));
  }
  return seen;
}

describe.skipIf(!docker.ready || cannotLimitBuilds)(
  `limits of build steps (real Docker, cgroup v${cgroupV2 ? 2 : 1})`,
  () => {
    let database: TestDatabase;
    let worker: WorkerRunner;
    let environmentId: string;
    let baseDockerfile: string;
    const raw = new Docker();

    beforeAll(async () => {
      database = await createTestDatabase();
      await loadDemoTasks(database.prisma);
      const environment = await database.prisma.environment.findUniqueOrThrow({
        where: { key: "demo/calc@base" },
        include: { currentRevision: true },
      });
      environmentId = environment.id;
      baseDockerfile = environment.currentRevision!.dockerfile;
      worker = await startTestWorker(database.url, {
        config: {
          buildTimeoutSeconds: BUILD_TIMEOUT_SECONDS,
          buildDiskMb: 64,
          limits: { memoryMb: MEMORY_MB, cpus: 1, pids: PIDS, timeoutSeconds: 60, diskMb: 256 },
        },
      });
    });
    afterAll(async () => {
      await worker?.stop();
      await database?.drop();
    });

    async function buildWithStep(step: string) {
      await reviseRecipe(
        database.prisma,
        environmentId,
        { dockerfile: () => `${baseDockerfile}\nRUN echo ${Date.now()} && ${step}\n` },
        "attack",
      );
      return requestBuild(database.prisma, { environmentId, actorId: null });
    }

    const buildFinished = (id: string, timeoutMs = 90_000) => waitForBuild(database.prisma, id, timeoutMs);

    /** Samples the build cgroups until the build ends: the largest pids count seen in one, and the keys; `look` sees each sample. */
    async function watchCgroupsUntil(done: Promise<unknown>, look?: (keys: Set<string>) => Promise<void>) {
      let finished = false;
      void done.finally(() => (finished = true));
      let peak = 0;
      const keys = new Set<string>();
      while (!finished) {
        for (const [key, pids] of buildCgroupPids()) {
          keys.add(key);
          peak = Math.max(peak, pids);
        }
        await look?.(keys);
        // sampling, not waiting for a condition: the loop ends when the build does
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return { peak, keys };
    }

    /** The step containers (running or not) of the builds whose cgroup keys are given. */
    async function stepContainers(keys: Set<string>) {
      const found = [];
      for (const summary of await raw.listContainers({ all: true })) {
        const info = await raw
          .getContainer(summary.Id)
          .inspect()
          .catch(() => null);
        const parent = info?.HostConfig.CgroupParent ?? "";
        if (info && [...keys].some((key) => parent.endsWith(`/${key}`))) found.push(info);
      }
      return found;
    }

    const leftoverStepContainers = async (keys: Set<string>) => (await stepContainers(keys)).map((info) => info.Id);

    it("a RUN step that fills the disk is stopped at the disk limit and its container removed", async () => {
      const { id } = await buildWithStep("dd if=/dev/zero of=/filler bs=1M count=50000 status=none");
      const build = buildFinished(id);
      const { keys } = await watchCgroupsUntil(build);
      const finished = await build;
      expect(finished).toMatchObject({
        status: "FAILED",
        errorMessage: "A build step wrote more than its 64 MB disk limit and was stopped",
      });
      expect(await leftoverStepContainers(keys)).toEqual([]);
    });

    it("a fork bomb in a RUN step stays within the pids limit, the host can still fork, and the build ends FAILED with a reason", async () => {
      // the bomb runs for a few seconds, then the step fails by itself rather than at the time limit
      // (that limit has its own test below); a fork the bomb leaves no pid for is retried by bash, and
      // the time limit still bounds the step
      const { id } = await buildWithStep("bash -c ':(){ :|:& };: ; sleep 8; exit 1'");
      const build = buildFinished(id);
      const { peak, keys } = await watchCgroupsUntil(build);
      const finished = await build;
      expect(keys.size).toBeGreaterThan(0);
      expect(peak).toBeGreaterThan(PIDS / 2);
      expect(peak).toBeLessThanOrEqual(PIDS);
      expect(spawnSync("true").status).toBe(0);
      expect(finished.status).toBe("FAILED");
      expect(finished.errorMessage).toMatch(
        new RegExp(`exceeded its ${BUILD_TIMEOUT_SECONDS} s limit|returned a non-zero code`),
      );
      expect(await leftoverStepContainers(keys)).toEqual([]);
      for (const key of keys) expect(existsSync(path.join(BUILD_CGROUPS, key))).toBe(false);
    });

    it("a RUN step that allocates more than the build's memory limit is killed, its container limited to it, and the build ends FAILED", async () => {
      const { id } = await buildWithStep(
        `python3 -c "x = bytearray(${MEMORY_MB * 2} * 1024 * 1024); import time; time.sleep(5)"`,
      );
      const build = buildFinished(id);
      let limited: number | undefined;
      const { keys } = await watchCgroupsUntil(build, async (stepKeys) => {
        for (const container of await stepContainers(stepKeys)) limited ??= container.HostConfig.Memory;
      });
      const finished = await build;
      expect(limited, "a step container was seen with its memory limit").toBe(MEMORY_MB * 1024 * 1024);
      expect(finished.status).toBe("FAILED");
      expect(finished.errorMessage).toMatch(/non-zero code: 137|memory/i);
      expect(spawnSync("true").status).toBe(0);
      expect(await leftoverStepContainers(keys)).toEqual([]);
    });

    it("a RUN step that never ends is killed at the build's time limit; a running build can be cancelled", async () => {
      const slow = await buildWithStep("sleep 600");
      const timedOut = await buildFinished(slow.id);
      expect(timedOut).toMatchObject({
        status: "FAILED",
        errorMessage: `The build exceeded its ${BUILD_TIMEOUT_SECONDS} s limit`,
      });

      const cancelled = await buildWithStep("sleep 601");
      await waitFor(
        "the step to start",
        async () => buildCgroupPids().size > 0 && [...buildCgroupPids().values()].some((pids) => pids > 0),
      );
      const keys = new Set(buildCgroupPids().keys());
      await cancelBuild(database.prisma, cancelled.id);
      expect(await buildFinished(cancelled.id, 30_000)).toMatchObject({ status: "CANCELLED" });
      await waitFor("the step container to go", async () => (await leftoverStepContainers(keys)).length === 0, 30_000);
    });
  },
);
