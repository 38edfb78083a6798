import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "@/lib/db/client";
import type { DemoTask } from "@/lib/environments/load-demo-environments";
import { requestValidation } from "@/lib/runs/request-validation";
import type { WorkerRunner } from "@/workers/runner";
import { makeDataDir } from "../helpers/data-dir";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { skipBecause } from "../helpers/skips";
import { startOwnPostgres, type OwnPostgres } from "../helpers/own-postgres";
import { startTestWorker, waitForGroup } from "../helpers/worker";

// Issue 11 item 3: the disk that holds the live log store fills up. The log_chunks table is
// moved to a tablespace on a tiny tmpfs that is then filled; runs must still finish, with a
// "log truncated" notice in their stored log, and nothing half-written. Needs root (mount).
const docker = await dockerForTests();
const notRoot = skipBecause(process.getuid?.() !== 0 && "the full-disk test mounts a tmpfs, which needs root");

describe.skipIf(!docker.ready || notRoot)("the log store's disk is full", () => {
  let postgres: OwnPostgres;
  let db: PrismaClient;
  let tasks: Record<string, DemoTask>;
  let worker: WorkerRunner;
  const mountRoot = makeDataDir("fault-full-disk-");
  const mountPoint = path.join(mountRoot, "logs");

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    db = createPrismaClient(postgres.url, 3);
    chmodSync(mountRoot, 0o711); // the postgres user must reach the mount point
    mkdirSync(mountPoint);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", mountPoint]);
    execFileSync("chown", ["postgres:postgres", mountPoint]);
    await db.$executeRawUnsafe(`create tablespace full_logs location '${mountPoint}'`);
    await db.$executeRawUnsafe("alter table log_chunks set tablespace full_logs");
    // fill what is left of the disk
    spawnSync("dd", ["if=/dev/zero", `of=${path.join(mountPoint, "filler")}`, "bs=4k"], { stdio: "ignore" });
    tasks = await loadDemoTasks(db);
    worker = await startTestWorker(postgres.url);
  });

  afterAll(async () => {
    await worker?.stop();
    await db?.$disconnect();
    await postgres?.close();
    spawnSync("umount", [mountPoint]);
    rmSync(mountRoot, { recursive: true, force: true });
  });

  it("runs still finish, their stored log says it was truncated, and the database stays consistent", async () => {
    const { groupId } = await requestValidation(db, { taskId: tasks["demo__calc-1"].id, actorId: null });
    const runs = await waitForGroup(db, groupId, 120_000);
    for (const run of runs) {
      expect(run, run.errorMessage ?? "").toMatchObject({ status: "SUCCEEDED", logTruncated: true });
      expect(run.log).toContain("OPENSWE_EXIT_CODE=");
      expect(run.log).toMatch(
        /log truncated: the live log stopped because it could not be stored \(.*No space left on device/,
      );
      expect(run.testResults.length).toBeGreaterThan(0);
    }
    expect(await db.logChunk.count()).toBe(0);
    const task = await db.task.findUniqueOrThrow({ where: { id: tasks["demo__calc-1"].id } });
    expect(task.automatedVerdict).toBe("VALID");
    // the rest of the database still takes writes
    await db.auditEvent.create({
      data: { actorId: null, entityType: "test", entityId: "x", action: "still-writable" },
    });
  });
});
