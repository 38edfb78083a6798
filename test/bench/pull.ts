// npm run bench:pull — what validating an IMAGE task costs before its first control starts,
// against a bare `docker pull` + `docker run` of the same image, in the same run.
//
// Starts its own PostgreSQL and its own registry (standing in for Docker Hub through
// IMAGE_REGISTRIES=docker.io=<it>), publishes a look-alike SWE-bench image there, imports a
// SWE-bench row naming it and, each round, with the image removed from the engine: (a) pulls
// and starts a container of it directly with dockerode, (b) presses Validate and waits for the
// first control's container to start (both timed to the engine's own StartedAt). Prints the
// medians and their ratio. The look-alike shares the base image's layers, which stay on the
// engine: each pull fetches the image's own layers, as a host holding other SWE-bench images would.
// Usage: npm run bench:pull   (needs Docker, the base image and docker-registry; BENCH_ROUNDS=5)

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { ensureDatabaseExists, startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { createPrismaClient, type PrismaClient } from "../../lib/db/client";
import { prepareDatabase } from "../../lib/db/prepare-database";
import { createDockerEngine } from "../../lib/docker/dockerode-engine";
import { allowedRegistries } from "../../lib/environments/image-reference";
import { sweBenchImageName } from "../../lib/environments/dataset-images";
import { importFile } from "../../lib/imports/import-file";
import { requestValidation } from "../../lib/runs/request-validation";
import { startWorkerRunner, type WorkerRunner } from "../../workers/runner";
import { freePort } from "../helpers/free-port";
import { startOwnRegistry } from "../helpers/own-registry";
import { demoFile, publishLookAlike } from "../helpers/look-alike-image";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LABEL = "io.swe-curator.bench.pull";

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Removes every copy of the image from the engine, so the next pull fetches it again. */
async function forget(docker: Docker, imageId: string | null) {
  if (imageId)
    await docker
      .getImage(imageId)
      .remove({ force: true })
      .catch(() => undefined);
}

/** When the engine started a container, by its own clock (this machine's): both sides are timed to the same event. */
async function startedAt(docker: Docker, containerId: string): Promise<number> {
  for (;;) {
    const state = (await docker.getContainer(containerId).inspect()).State;
    const at = Date.parse(state.StartedAt);
    if (at > 0) return at;
    await sleep(5);
  }
}

/** The baseline: docker pull, then create and start a container of it (network none, as ours). */
async function barePullAndRun(docker: Docker, reference: string): Promise<{ ms: number; imageId: string }> {
  const started = Date.now();
  const stream = await docker.pull(reference);
  await new Promise((resolve, reject) =>
    docker.modem.followProgress(stream, (error) => (error ? reject(error) : resolve(null))),
  );
  const container = await docker.createContainer({
    Image: reference,
    Cmd: ["sleep", "5"],
    HostConfig: { NetworkMode: "none" },
    Labels: { [LABEL]: "1" },
  });
  await container.start();
  const ms = (await startedAt(docker, container.id)) - started;
  await container.remove({ force: true });
  return { ms, imageId: (await docker.getImage(reference).inspect()).Id };
}

/** Ours: Validate pressed → the first control's container started. */
async function validateUntilFirstControl(db: PrismaClient, docker: Docker, taskId: string): Promise<number> {
  const started = Date.now();
  const group = await requestValidation(db, { taskId, actorId: null });
  for (;;) {
    const runs = await db.validationRun.findMany({
      where: { groupId: group.groupId },
      select: { containerId: true, status: true, errorMessage: true },
    });
    const first = runs.find((run) => run.containerId);
    if (first) {
      const ms = (await startedAt(docker, first.containerId!)) - started;
      while (
        (await db.validationRun.count({ where: { groupId: group.groupId, status: { in: ["QUEUED", "RUNNING"] } } })) > 0
      )
        await sleep(200);
      return ms;
    }
    const failed = runs.find((run) => run.status === "FAILED");
    if (failed) throw new Error(`the validation failed before a control started: ${failed.errorMessage}`);
    await sleep(10);
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "swe-curator-bench-pull-"));
  const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), quiet: true });
  const registry = await startOwnRegistry();
  const url = `${server.baseUrl}/bench_pull`;
  const docker = new Docker();
  const instanceId = `octo__calc-${randomBytes(3).toString("hex")}`;
  const name = sweBenchImageName(instanceId);
  let db: PrismaClient | undefined;
  let worker: WorkerRunner | undefined;
  let imageId: string | null = null;
  try {
    await ensureDatabaseExists(url);
    await prepareDatabase(url);
    db = createPrismaClient(url);
    await publishLookAlike(createDockerEngine(), { name, registryHost: registry.host, labels: { [LABEL]: "1" } });
    process.env.IMAGE_REGISTRIES = `docker.io=${registry.host}`;
    const imageRegistries = [
      ...allowedRegistries({
        IMAGE_REGISTRIES: [`docker.io=${registry.host}`],
        IMAGE_REGISTRY_CREDENTIALS: undefined,
      }).values(),
    ];
    worker = await startWorkerRunner({
      connectionString: url,
      concurrency: 2,
      log: () => {},
      config: { heartbeatMs: 500, leaseMs: 10_000, imageRegistries },
    });
    const rows = path.join(dataDir, "rows.json");
    const row = {
      instance_id: instanceId,
      repo: "octo/calc",
      base_commit: "base",
      version: "1.0",
      problem_statement: "mean([])",
      patch: demoFile("tasks/demo__calc-1/fix.patch"),
      test_patch: demoFile("tasks/demo__calc-1/test.patch"),
      FAIL_TO_PASS: ["tests/test_ops.py::test_mean_of_empty_list_raises_value_error"],
      PASS_TO_PASS: ["tests/test_ops.py::test_add"],
    };
    writeFileSync(rows, JSON.stringify([row]));
    await importFile(db, rows);
    const task = await db.task.findUniqueOrThrow({ where: { instanceId }, select: { id: true } });

    const bare: number[] = [];
    const ours: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await forget(docker, imageId);
      const baseline = await barePullAndRun(docker, `${registry.host}/${name}`);
      imageId = baseline.imageId;
      bare.push(baseline.ms);
      await forget(docker, imageId);
      ours.push(await validateUntilFirstControl(db, docker, task.id));
    }
    const environment = await db.environment.findFirstOrThrow({
      where: { tasks: { some: { id: task.id } } },
      select: { imageDigest: true },
    });
    console.log(
      `bench:pull — ${ROUNDS} rounds, a ${name} look-alike pulled from a loopback registry each time (pinned at ${environment.imageDigest})`,
    );
    console.log(`bare docker pull + docker run           median ${median(bare)} ms   (${bare.join(", ")})`);
    console.log(`Validate → first control started        median ${median(ours)} ms   (${ours.join(", ")})`);
    console.log(`ratio: ${(median(ours) / median(bare)).toFixed(2)}× the bare pull and run`);
  } finally {
    await worker?.stop();
    await db?.$disconnect();
    await registry.stop();
    await server.stop();
    await forget(docker, imageId);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
