import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import {
  installationId,
  LABEL_INSTALLATION,
  LABEL_MANAGED,
  LABEL_RUN_ID,
  runContainerLabels,
} from "@/lib/docker/container-labels";
import { pruneDocker } from "@/lib/worker-runtime/prune-docker";

const docker = await dockerForTests();
const BASE_IMAGE = process.env.BASE_IMAGE || "swe-curator/python-base:bookworm";

describe.skipIf(!docker.ready)("prune-docker", () => {
  let database: TestDatabase;
  const raw = new Docker();
  const created: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const id of created)
      await raw
        .getContainer(id)
        .remove({ force: true })
        .catch(() => {});
    await database?.drop();
  });

  async function labelledContainer(labels: Record<string, string>) {
    const container = await raw.createContainer({
      Image: BASE_IMAGE,
      Cmd: ["sleep", "60"],
      Labels: labels,
      HostConfig: { NetworkMode: "none" },
    });
    created.push(container.id);
    return container.id;
  }

  it("removes this database's containers whose run is not running under a live worker, and keeps the rest", async () => {
    const tasks = await loadDemoTasks(database.prisma);
    const task = tasks["demo__calc-1"];
    const revisionId = (await database.prisma.environment.findUniqueOrThrow({ where: { id: task.environmentId } }))
      .currentRevisionId!;
    const live = await database.prisma.validationRun.create({
      data: {
        taskId: task.id,
        revisionId,
        kind: "NEGATIVE_CONTROL",
        status: "RUNNING",
        workerId: "w-live",
        heartbeatAt: new Date(),
      },
    });
    const finished = await database.prisma.validationRun.create({
      data: { taskId: task.id, revisionId, kind: "POSITIVE_CONTROL", status: "SUCCEEDED", workerId: "w-live" },
    });

    const installation = installationId(database.url);
    const keep = await labelledContainer(runContainerLabels({ runId: live.id, workerId: "w-live", installation }));
    const otherWorker = await labelledContainer(
      runContainerLabels({ runId: live.id, workerId: "w-dead", installation }),
    );
    const done = await labelledContainer(runContainerLabels({ runId: finished.id, workerId: "w-live", installation }));
    const unknown = await labelledContainer({
      [LABEL_MANAGED]: "true",
      [LABEL_RUN_ID]: "no-such-run",
      [LABEL_INSTALLATION]: installation,
    });
    const otherDatabase = await labelledContainer(
      runContainerLabels({ runId: "a-run-of-another-database", workerId: "w-other", installation: "0123456789abcdef" }),
    );
    const notOurs = await labelledContainer({ "some.other.tool": "1" });

    const report = await pruneDocker({
      db: database.prisma,
      docker: createDockerEngine(),
      installation,
      leaseMs: 30_000,
      imageBudgetBytes: Number.MAX_SAFE_INTEGER,
    });
    expect(report.removedContainers.sort()).toEqual([otherWorker, done, unknown].sort());
    const remaining = (await raw.listContainers({ all: true })).map((c) => c.Id);
    expect(remaining).toEqual(expect.arrayContaining([keep, otherDatabase, notOurs]));
    for (const id of [otherWorker, done, unknown]) expect(remaining).not.toContain(id);
  });
});
