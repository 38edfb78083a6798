import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { dockerForTests } from "../helpers/docker";
import { startTestWorker, waitForHandBack } from "../helpers/worker";
import { createApiToken } from "@/lib/auth/api-tokens";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import type { DemoTask } from "@/lib/environments/load-demo-environments";
import type { WorkerRunner } from "@/workers/runner";
import * as runsRoute from "@/app/api/v1/runs/route";
import * as runCancelRoute from "@/app/api/v1/runs/[id]/cancel/route";
import * as runRetryRoute from "@/app/api/v1/runs/[id]/retry/route";
import * as runLogRoute from "@/app/api/v1/runs/[id]/log/route";
import * as buildsRoute from "@/app/api/v1/builds/route";
import * as dockerRoute from "@/app/api/v1/docker/route";
import * as jobsRoute from "@/app/api/v1/jobs/route";

type Handler = (request: Request, context?: { params?: Promise<unknown> }) => Promise<Response>;

function call(
  handler: Handler,
  token: string,
  path: string,
  options: { method?: string; body?: unknown; params?: Record<string, string> } = {},
) {
  const request = new Request(`http://localhost${path}`, {
    method: options.method ?? "GET",
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  return handler(request, { params: Promise.resolve(options.params ?? {}) });
}

/** Reads a whole server-sent-events response into its events. */
async function readEvents(response: Response): Promise<Array<{ event: string; data: Record<string, unknown> }>> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.includes("event:"))
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)![1];
      const data = JSON.parse(/^data: (.*)$/m.exec(block)![1]);
      return { event, data };
    });
}

async function tokenFor(database: TestDatabase, role: "CURATOR" | "VIEWER") {
  const user = await database.prisma.user.create({ data: { email: `${role.toLowerCase()}@api.test`, role } });
  return (await createApiToken(database.prisma, user.id, { name: "test" })).token;
}

// one database per file (the shared prisma client follows the first DATABASE_URL)
let database: TestDatabase;
let tasks: Record<string, DemoTask>;
let curator: string;
beforeAll(async () => {
  database = await createTestDatabase();
  tasks = await loadDemoTasks(database.prisma);
  curator = await tokenFor(database, "CURATOR");
});
afterAll(async () => {
  await database?.drop();
});

describe("validation over HTTP, with no Docker engine", () => {
  let worker: WorkerRunner | undefined;
  afterAll(async () => {
    await worker?.stop();
  });

  it("queues, refuses a second validation while one is queued, cancels, retries, and waits for Docker with the reason", async () => {
    const taskId = tasks["demo__calc-1"].id;
    const queued = await call(runsRoute.POST, curator, "/api/v1/runs", { method: "POST", body: { taskId } });
    expect(queued.status).toBe(202);
    const { groupId, runs } = await queued.json();
    expect(runs).toHaveLength(2);

    const again = await call(runsRoute.POST, curator, "/api/v1/runs", { method: "POST", body: { taskId } });
    expect(again.status).toBe(409);
    expect((await again.json()).detail).toMatch(/already queued or running/);
    const tooMany = await call(runsRoute.POST, curator, "/api/v1/runs", {
      method: "POST",
      body: { taskId, repeats: 9 },
    });
    expect(tooMany.status).toBe(400);

    const listed = await (await call(runsRoute.GET, curator, `/api/v1/runs?taskId=${taskId}`)).json();
    expect(listed.items[0]).toMatchObject({ groupId, active: true });
    expect(listed.task).toMatchObject({ automatedVerdict: "PENDING" });

    const cancelled = await call(runCancelRoute.POST, curator, `/api/v1/runs/${runs[0].id}/cancel`, {
      method: "POST",
      params: { id: runs[0].id },
    });
    expect(await cancelled.json()).toEqual({ cancelled: 2, stopping: 0 });
    const jobs = await database.prisma.$queryRaw<unknown[]>`select id from graphile_worker.jobs`;
    expect(jobs).toEqual([]);

    const retried = await call(runRetryRoute.POST, curator, `/api/v1/runs/${runs[0].id}/retry`, {
      method: "POST",
      params: { id: runs[0].id },
    });
    expect(retried.status).toBe(202);
    const retry = await retried.json();

    // without a Docker engine the runs wait for it, with the reason, instead of failing
    worker = await startTestWorker(database.url, {
      docker: createDockerEngine({ DOCKER_HOST: "unix:///nonexistent/docker.sock" }),
    });
    await waitForHandBack(database.prisma, retry.groupId);
    const history = await (await call(runsRoute.GET, curator, `/api/v1/runs?taskId=${taskId}`)).json();
    expect(history.items.map((g: { groupId: string }) => g.groupId)).toEqual([retry.groupId, groupId]);
    expect(history.items[0].runs[0]).toMatchObject({
      status: "QUEUED",
      failureClass: null,
      errorMessage: expect.stringContaining("Docker engine not reachable"),
    });

    const availability = await (await call(dockerRoute.GET, curator, "/api/v1/docker")).json();
    expect(availability).toMatchObject({
      canRunJobs: false,
      problem: expect.stringContaining("Docker engine not reachable"),
    });
    const overview = await (await call(jobsRoute.GET, curator, "/api/v1/jobs")).json();
    expect(overview.activeRuns.map((r: { id: string }) => r.id)).toEqual(
      expect.arrayContaining(retry.runs.map((r: { id: string }) => r.id)),
    );

    // a curator who does not want to wait cancels; the live log ends with that
    await call(runCancelRoute.POST, curator, `/api/v1/runs/${retry.runs[0].id}/cancel`, {
      method: "POST",
      params: { id: retry.runs[0].id },
    });
    const events = await readEvents(
      await call(runLogRoute.GET, curator, `/api/v1/runs/${retry.runs[0].id}/log`, {
        params: { id: retry.runs[0].id },
      }),
    );
    expect(events.at(-1)).toEqual({ event: "end", data: { type: "end", status: "CANCELLED" } });
    expect(overview.workers).toHaveLength(1);
  });

  it("answers 404 for an unknown run's log and 400 for a build request without an environment", async () => {
    expect((await call(runLogRoute.GET, curator, "/api/v1/runs/nope/log", { params: { id: "nope" } })).status).toBe(
      404,
    );
    expect((await call(buildsRoute.POST, curator, "/api/v1/builds", { method: "POST", body: {} })).status).toBe(400);
  });
});

const docker = await dockerForTests();

describe.skipIf(!docker.ready)("the live log over server-sent events", () => {
  let worker: WorkerRunner;
  beforeAll(async () => {
    worker = await startTestWorker(database.url);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it("streams a run's output as it happens with its status changes, and ends with the final status", async () => {
    const { runs } = await (
      await call(runsRoute.POST, curator, "/api/v1/runs", {
        method: "POST",
        body: { taskId: tasks["demo__calc-1"].id },
      })
    ).json();
    const positive = runs.find((r: { kind: string }) => r.kind === "POSITIVE_CONTROL");
    // opened right away, while the run is queued: the stream follows it to the end
    const events = await readEvents(
      await call(runLogRoute.GET, curator, `/api/v1/runs/${positive.id}/log`, { params: { id: positive.id } }),
    );
    const log = events
      .filter((e) => e.event === "log")
      .map((e) => e.data.content)
      .join("");
    expect(log).toContain("applying fix patch");
    expect(log).toContain("OPENSWE_EXIT_CODE=0");
    const statuses = events.filter((e) => e.event === "status").map((e) => e.data.status);
    expect(statuses[0]).toMatch(/QUEUED|RUNNING/);
    expect(events.at(-1)?.data).toEqual({ type: "end", status: "SUCCEEDED" });
    const seqs = events.filter((e) => e.event === "log").map((e) => e.data.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    // resuming after the last seen chunk sends nothing twice
    const resumed = await readEvents(
      await call(runLogRoute.GET, curator, `/api/v1/runs/${positive.id}/log?after=${seqs.at(-1)}`, {
        params: { id: positive.id },
      }),
    );
    expect(resumed.filter((e) => e.event === "log")).toEqual([]);
  });
});
