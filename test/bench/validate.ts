// npm run bench:validate — what our orchestration costs, measured against baselines in the same run:
//  (a) overhead per validation: enqueue → verdict stored, minus the same two containers run
//      directly with dockerode (median of ≥ 20);
//  (b) re-validation after an eval-script-only edit vs a full rebuild (no cache) + validation;
//  (c) throughput with 1 and 2 worker processes.
// Needs Docker and the base image (npm run images:base). Uses its own embedded PostgreSQL.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import Docker from "dockerode";
import { createPrismaClient, type PrismaClient } from "../../lib/db/client";
import { ensureDatabaseExists, startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { prepareDatabase } from "../../lib/db/prepare-database";
import { loadDemoEnvironments } from "../../lib/environments/load-demo-environments";
import { requestValidation } from "../../lib/runs/request-validation";
import { requestBuild } from "../../lib/builds/request-build";
import { revisionBuildContext } from "../../lib/builds/revision-build-context";
import { tarFiles } from "../../lib/docker/tar-files";
import { patchesFor, validationContainerFiles, VALIDATION_COMMAND } from "../../lib/runs/validation-container";
import { startWorkerRunner, type WorkerRunner } from "../../workers/runner";
import { reviseRecipe } from "../helpers/worker";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DEMO_DIR = path.join(ROOT, "prisma/seed/demo");
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const LIMITS = { memoryMb: 2048, cpus: 1, pids: 512 };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (value: number) => `${Math.round(value)} ms`;
const sleep = (time: number) => new Promise((resolve) => setTimeout(resolve, time));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitUntil<T>(
  probe: () => Promise<T | null | false | undefined>,
  everyMs = 50,
  timeoutMs = 300_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(everyMs);
  }
}

const FINISHED = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

/**
 * enqueue → every run of the group stored (the verdict commits in the same transaction).
 * The end is the last run's finishedAt, stamped by the worker on this machine's clock, so
 * the bench's own polling (slow on purpose, to leave the CPU to the worker) adds nothing.
 */
async function validateEndToEnd(db: PrismaClient, taskId: string, repeats = 1): Promise<number> {
  const started = Date.now();
  const { groupId } = await requestValidation(db, { taskId, actorId: null, repeats });
  const runs = await waitUntil(async () => {
    const rows = await db.validationRun.findMany({ where: { groupId }, select: { status: true, finishedAt: true } });
    return rows.every((run) => FINISHED.has(run.status)) ? rows : null;
  });
  return Math.max(...runs.map((run) => run.finishedAt!.getTime())) - started;
}

/** The baseline: the same container runs as the worker does, straight through dockerode. */
async function runDirect(
  docker: Docker,
  image: string,
  files: ReturnType<typeof validationContainerFiles>,
): Promise<void> {
  const container = await docker.createContainer({
    Image: image,
    Cmd: VALIDATION_COMMAND,
    Tty: false,
    AttachStdout: true,
    AttachStderr: true,
    NetworkDisabled: true,
    HostConfig: {
      NetworkMode: "none",
      Memory: LIMITS.memoryMb * 1024 * 1024,
      NanoCpus: LIMITS.cpus * 1e9,
      PidsLimit: LIMITS.pids,
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
    },
  });
  await container.putArchive(tarFiles(files), { path: "/" });
  const stream = await container.attach({ stream: true, stdout: true, stderr: true });
  let output = "";
  stream.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const ended = new Promise((resolve) => stream.on("end", resolve));
  await container.start();
  await container.wait();
  await ended;
  await container.remove({ force: true });
  if (!output.includes("OPENSWE_EXIT_CODE=")) throw new Error("the direct run printed no marker");
}

function spawnWorker(url: string): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "workers/main.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: url, WORKER_CONCURRENCY: "1" },
  });
}

async function main() {
  const dataDir = mkdtempSync(path.join(ROOT, ".data/bench-pg-"));
  const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), quiet: true });
  const url = `${server.baseUrl}/bench`;
  await ensureDatabaseExists(url);
  await prepareDatabase(url);
  const db = createPrismaClient(url, 5);
  const docker = new Docker();
  let worker: WorkerRunner | undefined;
  const children: ChildProcess[] = [];
  try {
    const tasks = Object.fromEntries((await loadDemoEnvironments(db, DEMO_DIR)).map((task) => [task.instanceId, task]));
    const good = tasks["demo__calc-1"];
    worker = await startWorkerRunner({ connectionString: url, concurrency: 1, log: () => {} });

    // warm up: the image exists (built or reused) before anything is timed
    await validateEndToEnd(db, good.id);
    const revision = await db.environmentRevision.findFirstOrThrow({
      where: { environment: { key: "demo/calc@base" } },
      include: { environment: true },
    });
    const { tag } = revisionBuildContext(revision);
    const task = await db.task.findUniqueOrThrow({ where: { id: good.id } });
    const filesFor = (kind: "NEGATIVE_CONTROL" | "POSITIVE_CONTROL") =>
      validationContainerFiles(patchesFor(kind, task), revision.evalScript);

    // (a) overhead per validation (both controls, one worker slot, so both sides run them one after the other)
    const endToEnd: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      endToEnd.push(await validateEndToEnd(db, good.id));
      const started = performance.now();
      await runDirect(docker, tag, filesFor("NEGATIVE_CONTROL"));
      await runDirect(docker, tag, filesFor("POSITIVE_CONTROL"));
      direct.push(performance.now() - started);
    }
    const overheads = endToEnd.map((value, i) => value - direct[i]);
    console.log(
      `(a) orchestration overhead per validation (2 runs), median of ${RUNS}: ${ms(median(overheads))}  [end-to-end ${ms(median(endToEnd))}, direct dockerode ${ms(median(direct))}; target < 300 ms]`,
    );

    // (b) eval-script-only edit (image reused) vs full rebuild without cache + validation,
    // with the product's default two slots per worker so both controls run side by side
    await worker.stop();
    worker = await startWorkerRunner({ connectionString: url, concurrency: 2, log: () => {} });
    const editRevision = (change: { dockerfile?: string; evalScript?: string }) =>
      reviseRecipe(
        db,
        revision.environmentId,
        {
          dockerfile: change.dockerfile === undefined ? undefined : () => change.dockerfile!,
          evalScript: change.evalScript === undefined ? undefined : () => change.evalScript!,
        },
        "bench",
      );
    const rebuildThenValidate = async () => {
      const started = Date.now();
      const build = await requestBuild(db, { environmentId: revision.environmentId, actorId: null, noCache: true });
      const built = await waitUntil(async () => {
        const row = await db.build.findUniqueOrThrow({ where: { id: build.id } });
        return FINISHED.has(row.status) ? row : null;
      });
      if (built.status !== "SUCCEEDED") throw new Error(`the bench build failed: ${built.errorMessage}`);
      return built.finishedAt!.getTime() - started + (await validateEndToEnd(db, good.id));
    };
    const scenarios: Array<{ name: string; dockerfile: string }> = [
      { name: "demo Dockerfile (copy repo, git commit)", dockerfile: revision.dockerfile },
      {
        name: "with a dependency-install-like step (byte-compile the stdlib)",
        dockerfile: `${revision.dockerfile}\nRUN python3 -m compileall -q -f /usr/lib/python3.11 >/dev/null || true\n`,
      },
    ];
    for (const scenario of scenarios) {
      await editRevision({ dockerfile: scenario.dockerfile });
      const full: number[] = [];
      const reuse: number[] = [];
      for (let i = 0; i < 3; i++) {
        full.push(await rebuildThenValidate());
        await editRevision({ evalScript: `${revision.evalScript}\n# edit ${i}\n` });
        reuse.push(await validateEndToEnd(db, good.id));
      }
      console.log(
        `(b) ${scenario.name}: full rebuild + validation ${ms(median(full))} vs re-validation after an eval-script edit ${ms(median(reuse))} = ${(median(full) / median(reuse)).toFixed(1)}×  [target ≥ 10×]`,
      );
    }
    if (process.env.BENCH_FROM_SCRATCH === "1") {
      // no retention at all: the base image too is bootstrapped again (debootstrap from the apt mirror)
      await editRevision({ dockerfile: revision.dockerfile });
      const scratchTag = "swe-curator/python-base:bench-scratch";
      const started = Date.now();
      const script = spawn("bash", ["workers/images/build-base-image.sh"], {
        cwd: ROOT,
        stdio: "ignore",
        env: { ...process.env, BASE_IMAGE: scratchTag, FORCE: "1" },
      });
      if ((await new Promise((resolve) => script.once("exit", resolve))) !== 0)
        throw new Error("the base image did not build");
      process.env.BASE_IMAGE = scratchTag; // a new build context: the worker builds the environment on the fresh base
      await worker.stop();
      worker = await startWorkerRunner({ connectionString: url, concurrency: 2, log: () => {} });
      const full = Date.now() - started + (await validateEndToEnd(db, good.id));
      await editRevision({ evalScript: `${revision.evalScript}\n# scratch edit\n` });
      const reuse = await validateEndToEnd(db, good.id);
      console.log(
        `(b) from scratch (base image by debootstrap + environment + validation): ${ms(full)} vs re-validation ${ms(reuse)} = ${(full / reuse).toFixed(1)}×`,
      );
      delete process.env.BASE_IMAGE;
      await docker
        .getImage(scratchTag)
        .remove({ force: true })
        .catch(() => {});
    }
    // the heavier scenario's image is the bench's own: remove it, then go back to the demo recipe
    const heavier = await db.build.findFirst({
      where: { cacheHit: false, status: "SUCCEEDED" },
      orderBy: { createdAt: "desc" },
      select: { imageTag: true },
    });
    if (heavier?.imageTag && heavier.imageTag !== tag)
      await docker
        .getImage(heavier.imageTag)
        .remove({ force: true })
        .catch(() => {});
    await editRevision({ dockerfile: revision.dockerfile, evalScript: revision.evalScript });
    await validateEndToEnd(db, good.id);

    // (c) throughput: 4 tasks × 3 attempts × 2 controls = 24 runs, with 1 then 2 worker processes (1 slot each)
    await worker.stop();
    worker = undefined;
    const throughputTasks = ["demo__calc-1", "demo__calc-2", "demo__calc-3", "demo__calc-4"].map((id) => tasks[id].id);
    const rates: number[] = [];
    for (const processes of [1, 2]) {
      for (let i = 0; i < processes; i++) children.push(spawnWorker(url));
      await waitUntil(async () => (await db.workerHeartbeat.count()) >= processes, 100, 60_000);
      const seconds =
        Math.max(...(await Promise.all(throughputTasks.map((taskId) => validateEndToEnd(db, taskId, 3))))) / 1000;
      rates.push((24 / seconds) * 60);
      console.log(
        `(c) ${processes} worker process${processes > 1 ? "es" : ""}: 24 runs in ${seconds.toFixed(1)} s = ${((24 / seconds) * 60).toFixed(0)} runs/min`,
      );
      for (const child of children.splice(0)) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      await db.workerHeartbeat.deleteMany();
    }
    console.log(
      `(c) 2 processes vs 1: ${(rates[1] / rates[0]).toFixed(2)}× (this machine: ${(await import("node:os")).cpus().length} cores)`,
    );
  } finally {
    for (const child of children) child.kill("SIGKILL");
    await worker?.stop();
    await db.$disconnect();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
