import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { PrismaClient } from "../../lib/db/client";
import { startWorkerRunner, type WorkerRunner, type WorkerRunnerOptions } from "../../workers/runner";

/** Settings that keep the suite quick: fast heartbeats and a short lease so crash recovery shows within seconds. */
export const FAST_WORKER_CONFIG = { heartbeatMs: 300, leaseMs: 3_000, pruneIntervalMs: 60_000 };

/**
 * The product's lease, for a worker beside imports the test runs in its own process or through a
 * spawned CLI: under load one write batch held its batch row, or delayed one renewal, past the short
 * lease, and the worker's recovery took the import over or failed it mid-file. Files that test lease
 * recovery keep a short lease.
 */
export const IN_PROCESS_IMPORT_LEASE = { leaseMs: 30_000 };

/**
 * For tests of import lease recovery: 3 s was shorter than one write batch (or one stored upload
 * chunk) on a busy machine, so a live import was taken for dead; a killed one is noticed 10 s after
 * its last heartbeat.
 */
export const IMPORT_RECOVERY_LEASE = { leaseMs: 10_000 };

export function startTestWorker(
  connectionString: string,
  options: Partial<WorkerRunnerOptions> = {},
): Promise<WorkerRunner> {
  return startWorkerRunner({
    connectionString,
    concurrency: 2,
    log: () => {},
    ...options,
    config: { ...FAST_WORKER_CONFIG, ...options.config },
  });
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 150,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

const FINISHED = ["SUCCEEDED", "FAILED", "CANCELLED"];

/** Waits until every run of the group has finished; returns them with their test results. */
export function waitForGroup(db: PrismaClient, groupId: string, timeoutMs = 90_000) {
  return waitFor(
    `validation group ${groupId} to finish`,
    async () => {
      const runs = await db.validationRun.findMany({
        where: { groupId },
        include: { testResults: true },
        orderBy: [{ attempt: "asc" }, { kind: "asc" }],
      });
      return runs.length && runs.every((run) => FINISHED.includes(run.status)) ? runs : null;
    },
    timeoutMs,
  );
}

/** Waits until every run of the group was handed back to the queue with a reason (an outage: no Docker engine, the database away). */
export function waitForHandBack(db: PrismaClient, groupId: string, timeoutMs = 60_000) {
  return waitFor(
    `validation group ${groupId} to be handed back to the queue`,
    async () => {
      const runs = await db.validationRun.findMany({ where: { groupId }, orderBy: { kind: "asc" } });
      return runs.length && runs.every((run) => run.status === "QUEUED" && run.errorMessage) ? runs : null;
    },
    timeoutMs,
  );
}

const ROOT = path.resolve(import.meta.dirname, "../..");

/** `npm run worker` as a real child process (its output collected in `output()`), with fast leases. */
export function spawnWorkerProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): { child: ChildProcess; output(): string } {
  const child = spawn(process.execPath, ["--import", "tsx", "workers/main.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      WORKER_CONCURRENCY: "2",
      WORKER_HEARTBEAT_MS: String(FAST_WORKER_CONFIG.heartbeatMs),
      WORKER_LEASE_MS: String(FAST_WORKER_CONFIG.leaseMs),
      ...env,
    },
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return { child, output: () => output };
}

/** Stops a child process and waits for it to exit. */
export async function stopProcess(child: ChildProcess | undefined, signal: NodeJS.Signals = "SIGTERM") {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}

/** Makes demo/calc's eval script sleep first, so a fault can land while its tests run. */
export async function slowDownDemoCalc(db: PrismaClient, seconds: number) {
  const environment = await db.environment.findUniqueOrThrow({
    where: { key: "demo/calc@base" },
    include: { currentRevision: true },
  });
  const slow = await db.environmentRevision.create({
    data: {
      environmentId: environment.id,
      number: environment.currentRevision!.number + 1,
      dockerfile: environment.currentRevision!.dockerfile,
      evalScript: environment.currentRevision!.evalScript.replace("cd /testbed", `cd /testbed\nsleep ${seconds}`),
      reason: "slow on purpose",
    },
  });
  await db.environment.update({ where: { id: environment.id }, data: { currentRevisionId: slow.id } });
}

type RecipeChange = { dockerfile?: (current: string) => string; evalScript?: (current: string) => string };

/**
 * Makes a new revision of an environment's recipe from its current one, as a curator's edit
 * does, and makes it current; returns both, so a test can put the old script back.
 */
export async function reviseRecipe(db: PrismaClient, environmentId: string, change: RecipeChange, reason: string) {
  const environment = await db.environment.findUniqueOrThrow({
    where: { id: environmentId },
    include: { currentRevision: true },
  });
  const current = environment.currentRevision!;
  const revision = await db.environmentRevision.create({
    data: {
      environmentId,
      number: current.number + 1,
      dockerfile: change.dockerfile ? change.dockerfile(current.dockerfile) : current.dockerfile,
      evalScript: change.evalScript ? change.evalScript(current.evalScript) : current.evalScript,
      reason,
    },
  });
  await db.environment.update({ where: { id: environmentId }, data: { currentRevisionId: revision.id } });
  return { current, revision };
}

const BUILD_FINISHED = ["SUCCEEDED", "FAILED", "CANCELLED"];

/** Waits for a build to finish, however it ends. */
export const waitForBuild = (db: PrismaClient, id: string, timeoutMs?: number) =>
  waitFor(
    `build ${id}`,
    async () => {
      const build = await db.build.findUniqueOrThrow({ where: { id } });
      return BUILD_FINISHED.includes(build.status) ? build : null;
    },
    timeoutMs,
  );
