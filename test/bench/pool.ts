// npm run bench:pool — validation throughput of a pool of two Docker engines against one.
//
// Starts its own PostgreSQL, its own registry and a second Docker engine of its own, loads
// 20 tasks (5 environments × 4 tasks, images no engine holds yet) and validates them
// twice: once with one worker on the shared engine, once with that worker plus a second
// on the second engine, the images travelling through the registry. Prints both wall
// times and their ratio, and what a pulled image cost against building it.
// Usage: npm run bench:pool   (needs root, dockerd and docker-registry, like the pool test)

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { ensureDatabaseExists, startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { createPrismaClient, type PrismaClient } from "../../lib/db/client";
import { prepareDatabase } from "../../lib/db/prepare-database";
import { createDockerEngine } from "../../lib/docker/dockerode-engine";
import { requestValidation } from "../../lib/runs/request-validation";
import { startWorkerRunner, type WorkerRunner } from "../../workers/runner";
import { freePort } from "../helpers/free-port";
import { ownDockerd } from "../helpers/own-dockerd";
import { startOwnRegistry } from "../helpers/own-registry";
import { loadPoolTasks, POOL_TEST_LABEL } from "../helpers/pool-seed";

const BASE_IMAGE = "swe-curator/python-base:bookworm";
const ENVIRONMENTS = 5;
const WORKER = { heartbeatMs: 500, leaseMs: 10_000, outageRetryMs: 1_000 };

async function validateAll(db: PrismaClient, nonce: string): Promise<number> {
  const expected = await loadPoolTasks(db, nonce, ENVIRONMENTS);
  const tasks = await db.task.findMany({ where: { instanceId: { in: [...expected.keys()] } }, select: { id: true } });
  const started = Date.now();
  for (const task of tasks) await requestValidation(db, { taskId: task.id, actorId: null });
  for (;;) {
    const open = await db.validationRun.count({
      where: { task: { instanceId: { in: [...expected.keys()] } }, status: { in: ["QUEUED", "RUNNING"] } },
    });
    if (!open) return (Date.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const seconds = (value: number) => `${value.toFixed(1)} s`;

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "swe-curator-bench-pool-"));
  const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), quiet: true });
  const registry = await startOwnRegistry();
  const second = ownDockerd();
  const nonces = [randomBytes(4).toString("hex"), randomBytes(4).toString("hex")];
  const workers: WorkerRunner[] = [];
  const url = `${server.baseUrl}/bench_pool`;
  let db: PrismaClient | undefined;
  try {
    await ensureDatabaseExists(url);
    await prepareDatabase(url);
    db = createPrismaClient(url);
    await second.start();
    const shared = createDockerEngine();
    await shared.pushImage(BASE_IMAGE, registry.host);
    const config = { ...WORKER, registryHost: registry.host };
    const quiet = () => {};

    workers.push(
      await startWorkerRunner({
        connectionString: url,
        concurrency: 2,
        log: quiet,
        config: { ...config, engineName: "shared" },
      }),
    );
    const oneEngine = await validateAll(db, nonces[0]);
    workers.push(
      await startWorkerRunner({
        connectionString: url,
        concurrency: 2,
        log: quiet,
        docker: createDockerEngine({ DOCKER_HOST: second.host }),
        config: { ...config, engineName: "second" },
      }),
    );
    const twoEngines = await validateAll(db, nonces[1]);

    const builds = await db.build.findMany({
      where: { status: "SUCCEEDED", revision: { environment: { key: { startsWith: `pool-${nonces[1]}/` } } } },
    });
    const built = builds.filter((build) => !build.cacheHit).map((build) => (build.durationMs ?? 0) / 1000);
    const pulled = builds
      .map((build) => Number(build.log?.match(/from the registry at \S+ in ([\d.]+) s/)?.[1]))
      .filter((value) => Number.isFinite(value));
    const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);

    console.log(`bench:pool — ${ENVIRONMENTS * 4} tasks (${ENVIRONMENTS} new images), 2 jobs at once per engine`);
    console.log(`one engine   ${seconds(oneEngine)}`);
    console.log(`two engines  ${seconds(twoEngines)}   throughput ${(oneEngine / twoEngines).toFixed(2)}× one engine`);
    console.log(
      `an image pulled from the registry: ${seconds(mean(pulled))} (${pulled.length} pulls) vs built: ${seconds(mean(built))} (${built.length} builds) — a pull costs ${(mean(pulled) / mean(built)).toFixed(2)}× a build`,
    );
  } finally {
    for (const worker of workers) await worker.stop();
    await db?.$disconnect();
    await second.cleanup();
    await registry.stop();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    const docker = new Docker();
    for (const nonce of nonces) {
      for (const image of await docker.listImages({ filters: { label: [`${POOL_TEST_LABEL}=${nonce}`] } }))
        await docker
          .getImage(image.Id)
          .remove({ force: true })
          .catch(() => undefined);
    }
  }
}

await main().catch((error) => {
  console.error(`bench:pool failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
