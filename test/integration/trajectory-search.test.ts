import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../helpers/database";
import { createDemoDatabase } from "../helpers/demo-database";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import { callRoute } from "../helpers/route-call";
import { createApiToken } from "../../lib/auth/api-tokens";
import { createCampaign } from "../../lib/campaigns/create-campaign";
import { serveNext } from "../../lib/campaigns/serve-next";
import type { StepHit } from "../../lib/trajectories/search-all-steps";
import type { FailureClusters } from "../../lib/trajectories/failure-clusters";
import * as searchRoute from "../../app/api/v1/trajectories/search/route";
import * as clustersRoute from "../../app/api/v1/trajectories/clusters/route";

// Search across trajectories and failure clusters, through the API a user calls, on a real
// Postgres holding the demo seed plus a 100,000-step trajectory and a blind campaign's task.

let db: TestDatabase;
let admin: { id: string; token: string };
let annotator: { id: string; token: string };
let longId: string;

const LONG_STEPS = 100_000;
const NEEDLE = "zebraphonic";

async function withToken(role: "ADMIN" | "CURATOR", name: string) {
  const user = await createUser(db.prisma, role, name);
  return { id: user.id, token: (await createApiToken(db.prisma, user.id, { name })).token };
}

/** A long trajectory written in one INSERT … SELECT (Postgres generates the rows), the needle in step 90,000 (index 89,999). */
async function insertLongTrajectory(taskId: string) {
  const trajectory = await db.prisma.trajectory.create({
    data: {
      externalId: "long-run",
      taskId,
      role: "SOLVER",
      format: "OTHER",
      model: "long-model",
      stepCount: LONG_STEPS,
    },
  });
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO trajectory_steps (id, trajectory_id, index, action, observation, updated_at)
     SELECT 'long-' || g, $1, g, 'ls src/module_' || (g % 97), CASE WHEN g = 89999 THEN 'found the ${NEEDLE} constant here' ELSE 'module output line ' || g END, now()
     FROM generate_series(0, ${LONG_STEPS - 1}) g`,
    trajectory.id,
  );
  return trajectory.id;
}

/** Three runs of one task that say the same word: two models, three outcomes. */
async function insertFilterWorld() {
  const env = await createEnvironment(db.prisma, "acme/filters");
  const [alpha, beta] = [
    await createTask(db.prisma, env.id, { instanceId: "acme__filters-1" }),
    await createTask(db.prisma, env.id, { instanceId: "acme__filters-2" }),
  ];
  const candidate = (taskId: string, generator: string, resolved: boolean) =>
    db.prisma.candidatePatch.create({ data: { taskId, generator, patch: "diff", resolved } });
  const runs = [
    {
      externalId: "f-resolved",
      taskId: alpha.id,
      model: "model-a",
      candidatePatchId: (await candidate(alpha.id, "a", true)).id,
      exitStatus: "submitted",
    },
    {
      externalId: "f-unresolved",
      taskId: alpha.id,
      model: "model-b",
      candidatePatchId: (await candidate(alpha.id, "b", false)).id,
      exitStatus: "submitted",
    },
    { externalId: "f-errored", taskId: beta.id, model: "model-a", candidatePatchId: null, exitStatus: "exit_cost" },
  ];
  for (const run of runs) {
    await db.prisma.trajectory.create({
      data: {
        ...run,
        role: "SOLVER",
        format: "OTHER",
        stepCount: 1,
        steps: {
          create: [
            {
              index: 0,
              action: "python repro.py",
              observation:
                "quasarflux mismatch\nTraceback (most recent call last):\n  File \"repro.py\", line 1\nKeyError: 'quasarflux'",
            },
          ],
        },
      },
    });
  }
}

/** A blind campaign over one task whose trajectory says a secret word; the annotator has been served it, not submitted. */
async function insertHiddenTask() {
  const env = await createEnvironment(db.prisma, "acme/hidden");
  const task = await createTask(db.prisma, env.id, { instanceId: "acme__hidden-1" });
  const candidate = await db.prisma.candidatePatch.create({
    data: { taskId: task.id, generator: "hidden-agent", patch: "diff", resolved: false },
  });
  await db.prisma.trajectory.create({
    data: {
      externalId: "hidden-run",
      taskId: task.id,
      candidatePatchId: candidate.id,
      role: "SOLVER",
      format: "OTHER",
      model: "hidden-model",
      stepCount: 1,
      steps: { create: [{ index: 0, action: "python x.py", observation: "crypticword\nValueError: crypticword" }] },
    },
  });
  const campaign = await createCampaign(db.prisma, { id: admin.id, role: "ADMIN" } as never, {
    name: "hidden",
    viewQuery: "repository=acme/hidden",
    annotatorIds: [annotator.id],
    overlap: 1,
  });
  expect(await serveNext(db.prisma, { id: annotator.id, role: "CURATOR" } as never, campaign.id)).toMatchObject({
    taskId: task.id,
  });
}

beforeAll(async () => {
  db = await createDemoDatabase();
  admin = await withToken("ADMIN", "Ada Admin");
  annotator = await withToken("CURATOR", "Bea Blind");
  const env = await createEnvironment(db.prisma, "acme/long");
  longId = await insertLongTrajectory((await createTask(db.prisma, env.id, { instanceId: "acme__long-1" })).id);
  await insertFilterWorld();
  await insertHiddenTask();
}, 300_000);
afterAll(async () => db.drop());

async function search(
  who: { token: string },
  query: string,
): Promise<{ status: number; items: StepHit[]; nextCursor: string | null; detail?: string }> {
  const response = await callRoute(searchRoute.GET, who.token, `/api/v1/trajectories/search?${query}`);
  return { status: response.status, ...(await response.json()) };
}

const ids = (items: StepHit[]) => items.map((hit) => `${hit.instanceId}/${hit.model}/${hit.outcome}`).sort();

describe("search across trajectories", () => {
  it("finds a word inside step 90,000 of a 100,000-step trajectory, with its task, model and a marked snippet", async () => {
    const { status, items } = await search(admin, `q=${NEEDLE}`);
    expect(status).toBe(200);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      trajectoryId: longId,
      stepIndex: 89_999,
      instanceId: "acme__long-1",
      model: "long-model",
      outcome: "UNKNOWN",
    });
    expect(items[0].snippet.filter((piece) => piece.match).map((piece) => piece.text)).toEqual([NEEDLE]);
    expect(items[0].snippet.map((piece) => piece.text).join("")).toContain("found the");
  });

  it("narrows by model, task and outcome", async () => {
    expect(ids((await search(admin, "q=quasarflux")).items)).toEqual([
      "acme__filters-1/model-a/RESOLVED",
      "acme__filters-1/model-b/UNRESOLVED",
      "acme__filters-2/model-a/ERRORED",
    ]);
    expect(ids((await search(admin, "q=quasarflux&model=model-a")).items)).toEqual([
      "acme__filters-1/model-a/RESOLVED",
      "acme__filters-2/model-a/ERRORED",
    ]);
    expect(ids((await search(admin, "q=quasarflux&task=acme__filters-2")).items)).toEqual([
      "acme__filters-2/model-a/ERRORED",
    ]);
    expect(ids((await search(admin, "q=quasarflux&verdict=UNRESOLVED")).items)).toEqual([
      "acme__filters-1/model-b/UNRESOLVED",
    ]);
    expect(ids((await search(admin, "q=quasarflux&model=model-b&verdict=RESOLVED")).items)).toEqual([]);
  });

  it("pages with a cursor through every hit once", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof search>> = await search(
        admin,
        `q=quasarflux&limit=1${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(...page.items.map((hit) => hit.trajectoryId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
  });

  it("says in one sentence what to type when the words are too short, and when a cursor is bad", async () => {
    const short = await search(admin, "q=ab");
    expect(short.status).toBe(400);
    expect(short.detail).toMatch(/at least one word of 3 or more characters/);
    expect((await search(admin, "q=quasarflux&cursor=nonsense")).status).toBe(400);
  });

  it("never shows an annotator a trajectory of a task their blind campaign hides, while an admin finds it", async () => {
    expect((await search(admin, "q=crypticword")).items.map((hit) => hit.instanceId)).toEqual(["acme__hidden-1"]);
    expect((await search(annotator, "q=crypticword")).items).toEqual([]);
    expect((await search(annotator, "q=crypticword&task=acme__hidden-1")).items).toEqual([]);
    expect((await search(annotator, "q=quasarflux")).items).toHaveLength(3); // the rest stays searchable
  });
});

async function clusters(who: { token: string }, query = ""): Promise<FailureClusters> {
  return (await callRoute(clustersRoute.GET, who.token, `/api/v1/trajectories/clusters?${query}`)).json();
}

describe("failure clusters", () => {
  it("groups the demo's failed runs by signature: the failed test, the missing pytest, the timeout", async () => {
    const demo = (await clusters(admin)).clusters.filter((c) =>
      c.members.every((m) => m.instanceId?.startsWith("demo__")),
    );
    expect(demo.map((c) => [c.key, c.count, c.members.map((m) => m.instanceId).sort()])).toEqual([
      [
        "Failed | python | tests/test_ops.py::test_mean_of_empty_list_raises_value_error",
        2,
        ["demo__calc-1", "demo__calc-2"],
      ],
      ["command not found | bash:pytest | -", 2, ["demo__calc-4", "demo__calc-5"]],
      ["timeout | python | -", 1, ["demo__calc-3"]],
    ]);
  });

  it("filters clusters like the search and leaves a hidden task's failed run out for its annotator", async () => {
    expect((await clusters(admin, "model=demo-shell-model")).clusters.map((c) => c.key)).toEqual([
      "command not found | bash:pytest | -",
    ]);
    const keyOf = async (who: { token: string }) =>
      (await clusters(who, "model=hidden-model")).clusters.map((c) => c.key);
    expect(await keyOf(admin)).toEqual(["ValueError | python | -"]);
    expect(await keyOf(annotator)).toEqual([]);
  });

  it("exports every clustered run as CSV beside its signature", async () => {
    const response = await callRoute(
      clustersRoute.GET,
      admin.token,
      "/api/v1/trajectories/clusters?format=csv&model=demo-hasty-model",
    );
    expect(response.headers.get("content-type")).toMatch(/text\/csv/);
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "cluster,error_class,tool,failing_tests,cluster_size,trajectory_id,instance_id,model,outcome,step",
    );
    expect(
      lines
        .slice(1)
        .map((line) => line.split(",").slice(6, 9).join(","))
        .sort(),
    ).toEqual([
      "demo__calc-1,demo-hasty-model,UNRESOLVED",
      "demo__calc-2,demo-hasty-model,UNRESOLVED",
      "demo__calc-3,demo-hasty-model,ERRORED",
    ]);
  });
});
