import type { PrismaClient } from "../../lib/db/client";
import { startWorkerRunner, type WorkerRunner, type WorkerRunnerOptions } from "../../workers/runner";

/** Settings that keep the suite quick: fast heartbeats and a short lease so crash recovery shows within seconds. */
export const FAST_WORKER_CONFIG = { heartbeatMs: 300, leaseMs: 3_000, pruneIntervalMs: 60_000 };

export function startTestWorker(connectionString: string, options: Partial<WorkerRunnerOptions> = {}): Promise<WorkerRunner> {
  return startWorkerRunner({ connectionString, concurrency: 2, log: () => {}, ...options, config: { ...FAST_WORKER_CONFIG, ...options.config } });
}

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000, everyMs = 150): Promise<T> {
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
      const runs = await db.validationRun.findMany({ where: { groupId }, include: { testResults: true }, orderBy: [{ attempt: "asc" }, { kind: "asc" }] });
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
