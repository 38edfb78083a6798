import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDataDir, removeDataDir } from "../helpers/data-dir";
import { DEMO_DIR } from "../helpers/demo-environments";
import { freePort } from "../helpers/free-port";
import { startTestWorker, waitFor, waitForHandBack } from "../helpers/worker";
import { createPrismaClient, type PrismaClient } from "@/lib/db/client";
import { ensureDatabaseExists, startEmbeddedPostgres } from "@/lib/database-server/database-server";
import { prepareDatabase } from "@/lib/db/prepare-database";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { loadDemoEnvironments } from "@/lib/environments/load-demo-environments";
import { requestValidation } from "@/lib/runs/request-validation";
import type { WorkerRunner } from "@/workers/runner";
import { createQueuePool } from "@/lib/worker-runtime/queue-pool";

// A database restart must not take a worker down. This file starts its OWN PostgreSQL
// (never the suite's shared one), stops it under a running worker, starts it again on
// the same port and data folder, and checks the worker is still alive and taking jobs.
// The worker gets an unreachable Docker engine: a run it hands back to wait for the engine
// proves the job was picked up and worked on, which is all this test is about.
describe("a worker whose database restarts", () => {
  const dataDir = makeDataDir("blip-pg-");
  let port: number;
  let server: { baseUrl: string; stop(): Promise<void> } | undefined;
  let url: string;
  let worker: WorkerRunner | undefined;
  const clients: PrismaClient[] = [];
  const workerLog: string[] = [];
  const connect = () => {
    const client = createPrismaClient(url, 3);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    port = await freePort();
    server = await startEmbeddedPostgres({ dataDir, port, quiet: true });
    url = `${server.baseUrl}/swe_curator_blip`;
    await ensureDatabaseExists(url);
    await prepareDatabase(url);
    worker = await startTestWorker(url, {
      docker: createDockerEngine({ DOCKER_HOST: "unix:///nonexistent/docker.sock" }),
      log: (line) => workerLog.push(line),
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await Promise.all(clients.map((client) => client.$disconnect().catch(() => {})));
    await server?.stop();
    removeDataDir(dataDir);
  });

  it("keeps running through the outage, then beats again and takes jobs", async () => {
    const before = connect();
    const tasks = Object.fromEntries((await loadDemoEnvironments(before, DEMO_DIR)).map((t) => [t.instanceId, t]));
    const first = await requestValidation(before, { taskId: tasks["demo__calc-1"].id, actorId: null });
    await waitForHandBack(before, first.groupId, 30_000);
    await before.$disconnect();

    // the outage: PostgreSQL is down for a few of the worker's heartbeats and polls
    await server!.stop();
    server = undefined;
    const from = workerLog.length;
    await waitFor(
      "the worker to miss two heartbeats while the database is down",
      async () => workerLog.slice(from).filter((line) => line.startsWith("heartbeat failed")).length >= 2,
    );
    server = await startEmbeddedPostgres({ dataDir, port, quiet: true });
    const restartedAt = new Date();

    const after = connect();
    await waitFor(
      "the worker's heartbeat after the restart",
      () => after.workerHeartbeat.findFirst({ where: { id: worker!.workerId, lastSeenAt: { gt: restartedAt } } }),
      30_000,
    );
    const second = await requestValidation(after, { taskId: tasks["demo__calc-2"].id, actorId: null });
    const runs = await waitForHandBack(after, second.groupId, 60_000);
    const handedBack = await after.auditEvent.findMany({
      where: { entityType: "validation_run", entityId: { in: runs.map((run) => run.id) }, action: "requeued" },
    });
    expect(handedBack.map((event) => (event.after as { workerId: string }).workerId)).toEqual([
      worker!.workerId,
      worker!.workerId,
    ]);
  });

  // the queue marks a finished job done without awaiting it: a connection it asks for in an
  // outage must wait for the database, not reject with nobody to handle it (that ended the process)
  it("gives the queue a connection asked for while the database is away once it is back, and none once the worker stops", async () => {
    const lines: string[] = [];
    const stopping = new AbortController();
    const pool = createQueuePool({
      connectionString: url,
      max: 2,
      stopping: stopping.signal,
      log: (l) => lines.push(l),
    });
    try {
      await server!.stop();
      server = undefined;
      const waiting = pool.connect();
      await waitFor("the queue to say it waits for the database", async () =>
        lines.some((l) => l.startsWith("the queue's database is away")),
      );
      server = await startEmbeddedPostgres({ dataDir, port, quiet: true });
      const client = await waiting;
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
      client.release();
      expect(lines).toContain("the queue's database answers again");

      await server.stop();
      server = undefined;
      const refused = pool.connect();
      await waitFor("the queue to wait again", async () => lines.filter((l) => l.includes("is away")).length >= 2);
      stopping.abort();
      await expect(refused).rejects.toThrow();
    } finally {
      server ??= await startEmbeddedPostgres({ dataDir, port, quiet: true });
      await pool.end();
    }
  });
});
