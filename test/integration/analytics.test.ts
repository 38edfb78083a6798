import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask, type TaskOverrides } from "../fixtures/factories/curation";
import { apiTokenFor, callRoute } from "../helpers/route-call";
import { listTasks } from "../../lib/tasks/list-tasks";
import { taskFacets } from "../../lib/tasks/task-facets";
import { withResolvedSlice } from "../../lib/analytics/resolve-slice";
import { ranReproducer } from "../../lib/trajectories/reproducer";
import { computeFunnel, FunnelQuerySchema } from "../../lib/analytics/funnel";
import { reviewerAnalytics, ReviewerQuerySchema } from "../../lib/analytics/reviewers";
import { generatedTestAnalytics, GeneratedTestQuerySchema } from "../../lib/analytics/generated-tests";
import { verifiabilityAnalytics } from "../../lib/analytics/verifiability";
import type { RunKind, FailureClass } from "../../lib/db/enums";
import { NOT_BLIND } from "../../lib/auth/blind";

// A seeded set whose every figure was counted by hand (the comments say how), computed
// against real Postgres, and every drill-down link followed into the task list.

let db: TestDatabase;
const ids: Record<string, string> = {};
let revisionId = "";
const minute = (m: number) => new Date(Date.UTC(2026, 0, 1, 12, m));

async function task(
  name: string,
  environmentId: string,
  overrides: TaskOverrides & { metadata?: object; fixPatch?: string; failToPass?: string[] },
) {
  const { metadata, fixPatch, failToPass, ...rest } = overrides;
  const row = await createTask(db.prisma, environmentId, { instanceId: name, ...rest });
  await db.prisma.task.update({
    where: { id: row.id },
    data: {
      ...(metadata ? { metadata } : {}),
      ...(fixPatch ? { fixPatch } : {}),
      ...(failToPass ? { failToPass } : {}),
    },
  });
  ids[name] = row.id;
}

async function run(
  name: string,
  kind: RunKind,
  failureClass: FailureClass | null,
  finishedAt: Date,
  extra: { log?: string; candidatePatchId?: string; resolved?: boolean } = {},
) {
  await db.prisma.validationRun.create({
    data: { taskId: ids[name], revisionId, kind, status: "SUCCEEDED", failureClass, finishedAt, ...extra },
  });
}

async function review(
  externalId: string,
  taskName: string,
  candidatePatchId: string,
  model: string,
  decision: "APPROVE" | "REQUEST_CHANGES",
  extra: object,
  actions: string[],
) {
  const trajectory = await db.prisma.trajectory.create({
    // ranReproducer as the importer sets it when it writes the steps
    data: {
      externalId,
      taskId: ids[taskName],
      candidatePatchId,
      role: "REVIEWER",
      format: "OTHER",
      model,
      decision,
      stepCount: actions.length,
      ranReproducer: ranReproducer(actions.map((action) => ({ action }))),
      ...extra,
    },
  });
  for (const [index, action] of actions.entries())
    await db.prisma.trajectoryStep.create({ data: { trajectoryId: trajectory.id, index, action } });
}

beforeAll(async () => {
  db = await createTestDatabase();
  const widgets = await createEnvironment(db.prisma, "acme/widgets");
  const gadgets = await createEnvironment(db.prisma, "acme/gadgets");
  await db.prisma.environment.update({ where: { id: gadgets.id }, data: { metadata: { recipeAuthor: "env-model" } } });
  const flow = await createEnvironment(db.prisma, "acme/flow");
  revisionId = widgets.revision.id;

  // funnel: the first gate each task failed is in brackets
  await task("f1", widgets.id, { source: "SWE_BENCH", automatedVerdict: "PENDING" }); // [built] not validated
  await task("f2", widgets.id, { source: "SWE_BENCH", automatedVerdict: "INVALID", failureClass: "BUILD_ERROR" }); // [built]
  await task("f3", widgets.id, {
    source: "SWE_BENCH",
    automatedVerdict: "INVALID",
    failureClass: "NEGATIVE_CONTROL_PASSED",
  }); // [negative]
  await task("f4", gadgets.id, {
    source: "OPENSWE",
    automatedVerdict: "INVALID",
    failureClass: "POSITIVE_CONTROL_FAILED",
  }); // [positive]
  await task("f5", gadgets.id, { source: "OPENSWE", automatedVerdict: "FLAKY" }); // [legitimate]
  await task("f6", gadgets.id, { source: "OPENSWE", automatedVerdict: "VALID" }); // [approved] awaiting a curator
  await task("f7", gadgets.id, { source: "OPENSWE", automatedVerdict: "VALID", curationStatus: "APPROVED" }); // passed all
  await task("f8", widgets.id, { source: "SWE_BENCH", automatedVerdict: "VALID", curationStatus: "APPROVED" }); // passed all

  // test-driven steps (in the funnel too): s1 verifiable, s2 misses a function, s3 computes the wrong value
  const stepPatch = "+++ b/pkg/parse.py\n+def parse(text):\n+    return tokenize(text)\n";
  await task("s1", flow.id, { kind: "TDD_STEP", source: "SWE_FLOW", automatedVerdict: "VALID", fixPatch: stepPatch }); // [approved]
  await task("s2", flow.id, {
    kind: "TDD_STEP",
    source: "SWE_FLOW",
    automatedVerdict: "INVALID",
    failureClass: "POSITIVE_CONTROL_FAILED",
    fixPatch: stepPatch,
  }); // [positive]
  await task("s3", flow.id, {
    kind: "TDD_STEP",
    source: "SWE_FLOW",
    automatedVerdict: "INVALID",
    failureClass: "POSITIVE_CONTROL_FAILED",
    fixPatch: stepPatch,
  }); // [positive]
  await run("s1", "POSITIVE_CONTROL", null, minute(1));
  await run("s2", "POSITIVE_CONTROL", "POSITIVE_CONTROL_FAILED", minute(1), {
    log: "tests/test_parse.py F\nE   NameError: name 'tokenize' is not defined\n",
  });
  await run("s3", "POSITIVE_CONTROL", "POSITIVE_CONTROL_FAILED", minute(1), {
    log: "tests/test_parse.py F\nE       assert ['a'] == ['a', 'b']\n",
  });

  // generated tests (never in the funnel): g1 valid, g2 accurate but no attack, g3 attacks but inaccurate
  const generated = (generator: string, test: string) => ({
    kind: "TEST_GENERATION" as const,
    metadata: { generator, generatedFor: "f8" },
    failToPass: [`test_gen.py::${test}`],
  });
  await task("g1", widgets.id, generated("gen-x", "test_g1"));
  await task("g2", widgets.id, generated("gen-x", "test_g2"));
  await task("g3", widgets.id, generated("gen-y", "test_g3"));
  await run("g1", "NEGATIVE_CONTROL", null, minute(1));
  await run("g1", "POSITIVE_CONTROL", null, minute(1));
  await run("g2", "NEGATIVE_CONTROL", null, minute(1)); // superseded by the later run below
  await run("g2", "NEGATIVE_CONTROL", "NEGATIVE_CONTROL_PASSED", minute(5));
  await run("g2", "POSITIVE_CONTROL", null, minute(5));
  await run("g3", "NEGATIVE_CONTROL", null, minute(1));
  await run("g3", "POSITIVE_CONTROL", "POSITIVE_CONTROL_FAILED", minute(1));

  // reviews: rev-1 approves a resolving patch (f8) and a failing one (f7, a false approval); rev-2 rejects the failing one
  const good = await db.prisma.candidatePatch.create({
    data: { taskId: ids.f8, generator: "gen-good", patch: "diff --git a/w.py b/w.py\n" },
  });
  const bad = await db.prisma.candidatePatch.create({
    data: { taskId: ids.f7, generator: "gen-bad", patch: "diff --git a/w.py b/w.py\n" },
  });
  await run("f8", "CANDIDATE", null, minute(2), { candidatePatchId: good.id, resolved: true });
  await run("f7", "CANDIDATE", null, minute(2), { candidatePatchId: bad.id, resolved: false });
  await review(
    "rv1",
    "f8",
    good.id,
    "rev-1",
    "APPROVE",
    { confidence: 0.9, tokensIn: 100, tokensOut: 50, costUsd: 0.01 },
    ["cat w.py", "python reproduce.py"],
  );
  await review(
    "rv2",
    "f7",
    bad.id,
    "rev-1",
    "APPROVE",
    { confidence: 0.8, tokensIn: 200, tokensOut: 100, costUsd: 0.02, metadata: { cause: "subtle_logic_bug" } },
    ["cat w.py"],
  );
  await review("rv3", "f7", bad.id, "rev-2", "REQUEST_CHANGES", { confidence: 0.6, metadata: { reviewId: "r-3" } }, []);
  // the revision loop: gen-bad revised its patch after rev-2's review, and the revision resolves
  const revised = await db.prisma.candidatePatch.create({
    data: {
      taskId: ids.f7,
      generator: "gen-bad@2",
      patch: "diff --git a/w.py b/w.py\n",
      metadata: { revision_of: "gen-bad", review_id: "r-3" },
    },
  });
  await run("f7", "CANDIDATE", null, minute(3), { candidatePatchId: revised.id, resolved: true });
});
afterAll(async () => db?.drop());

/** The instance ids the task list shows for a drill-down link. */
async function drill(href: string | undefined): Promise<string[]> {
  expect(href).toBeDefined();
  const slice = new URL(href!, "http://x").searchParams.get("slice")!;
  const context = await withResolvedSlice(db.prisma, slice, {});
  const page = await listTasks(db.prisma, { slice, sort: "instance_asc", limit: 100 }, context);
  const facets = await taskFacets(db.prisma, { slice }, context);
  expect(facets.total).toBe(page.items.length);
  return page.items.map((t) => t.instanceId);
}

describe("validation funnel on real rows", () => {
  it("counts every gate, and each bar opens exactly its tasks", async () => {
    const funnel = await computeFunnel(db.prisma, FunnelQuerySchema.parse({}), NOT_BLIND);
    // 11 tasks (generated tests excluded), every one with an environment; built loses f1 and f2, negative f3, positive f4 s2 s3, legitimate f5, approved f6 s1
    expect(funnel.stages.rows.map((r) => r.tasks)).toEqual([11, 11, 9, 8, 5, 4, 2]);
    expect(await drill(funnel.stages.drill["all tasks|approved"].tasks)).toEqual(["f7", "f8"]);
    expect(await drill(funnel.stages.drill["all tasks|legitimate"].tasks)).toEqual(["f6", "f7", "f8", "s1"]);
    const positiveDrop = funnel.drops.rows.find((r) => r.cause === "POSITIVE_CONTROL_FAILED")!;
    expect(positiveDrop.tasks).toBe(3);
    expect(await drill(funnel.drops.drill[positiveDrop.key].tasks)).toEqual(["f4", "s2", "s3"]);
  });

  it("splits by source and by the environment's generator, with filters kept in the links", async () => {
    const bySource = await computeFunnel(db.prisma, FunnelQuerySchema.parse({ by: "source" }), NOT_BLIND);
    expect(bySource.stages.rows.filter((r) => r.group === "OPENSWE").map((r) => r.tasks)).toEqual([
      4, 4, 4, 4, 3, 2, 1,
    ]);
    expect(await drill(bySource.stages.drill["OPENSWE|approved"].tasks)).toEqual(["f7"]);
    const openswe = await computeFunnel(db.prisma, FunnelQuerySchema.parse({ source: "OPENSWE" }), NOT_BLIND);
    expect(openswe.stages.rows.map((r) => [r.stage, r.tasks])[0]).toEqual(["Imported", 4]);
    const byGenerator = await computeFunnel(
      db.prisma,
      FunnelQuerySchema.parse({ by: "generator", source: "OPENSWE" }),
      NOT_BLIND,
    );
    expect(byGenerator.groups).toEqual(["env-model"]);
    const notValidated = await computeFunnel(
      db.prisma,
      FunnelQuerySchema.parse({ repository: "acme/widgets" }),
      NOT_BLIND,
    );
    const drop = notValidated.drops.rows.find((r) => r.cause === "not validated yet")!;
    expect(await drill(notValidated.drops.drill[drop.key].tasks)).toEqual(["f1"]);
  });
});

describe("reviewer analytics on real rows", () => {
  it("scores against the candidate runs, reads reproducers from step actions and opens the false approval", async () => {
    const result = await reviewerAnalytics(db.prisma, ReviewerQuerySchema.parse({}), NOT_BLIND);
    const rev1 = result.measures.rows.find((r) => r.key === "rev-1")!;
    // one right approval, one false approval; 450 tokens, 3 steps and $0.03 for one correct decision
    expect(rev1).toMatchObject({
      reviews: 2,
      scored: 2,
      correct: 1,
      accuracy: 0.5,
      falseApproval: 1,
      falseApprovalRate: 1,
      falseRejectionRate: 0,
      tokensPerCorrect: 450,
      stepsPerCorrect: 3,
      reproducer: 1,
      reproducerShare: 0.5,
    });
    expect(rev1.costPerCorrect).toBeCloseTo(0.03);
    // one decision of one: 100 %, but carried with its n and its 95 % Wilson interval (20.7–100 %)
    expect(result.measures.rows.find((r) => r.key === "rev-2")).toMatchObject({
      reviews: 1,
      correct: 1,
      accuracy: 1,
      accuracy_successes: 1,
      accuracy_n: 1,
      accuracy_low: expect.closeTo(0.2065, 4),
      accuracy_high: 1,
      falseRejectionRate: null,
      falseRejectionRate_n: 0,
      falseRejectionRate_low: null,
      reproducerShare: null,
    });
    expect(await drill(result.measures.drill["rev-1"].falseApproval)).toEqual(["f7"]);
    expect(result.causes.rows.find((r) => r.key === "subtle_logic_bug")?.falseApproval).toBe(1);
    // 0.8 and 0.9 share the 80–100 % bin (a bin includes its lower edge): one right, one wrong; 0.6 alone in 60–80 %
    expect(result.calibration.rows[4]).toMatchObject({ reviews: 2, accuracy: 0.5 });
    expect(result.calibration.rows[4].meanConfidence).toBeCloseTo(0.85);
    expect(result.calibration.rows[3]).toMatchObject({ reviews: 1, accuracy: 1 });
    expect(await drill(result.calibration.drill["4"].reviews)).toEqual(["f7", "f8"]);
  });

  it("measures the resolve rate before and after revision, and opens the pairs a revision fixed", async () => {
    const result = await reviewerAnalytics(db.prisma, ReviewerQuerySchema.parse({}), NOT_BLIND);
    expect(result.revisions.rows).toEqual([
      expect.objectContaining({
        reviewer: "rev-2",
        generator: "gen-bad",
        pairs: 1,
        measured: 1,
        resolveRateBefore: 0,
        resolveRateAfter: 1,
        fixed: 1,
        broke: 0,
      }),
    ]);
    expect(await drill(result.revisions.drill["rev-2 × gen-bad"].fixed)).toEqual(["f7"]);
    expect(result.revisionPairs.rows[0]).toMatchObject({ task: "f7", change: "fixed by the revision" });
  });
});

describe("generated tests and verifiability on real rows", () => {
  it("attack rate, output accuracy and accuracy ∩ attack per generator, from the latest runs", async () => {
    const result = await generatedTestAnalytics(db.prisma, GeneratedTestQuerySchema.parse({}), NOT_BLIND);
    expect(result.rates.rows.find((r) => r.key === "gen-x")).toMatchObject({
      tests: 2,
      attacks: 1,
      attackRate: 0.5,
      accurate: 2,
      accuracy: 1,
      valid: 1,
      validRate: 0.5,
    });
    expect(result.rates.rows.find((r) => r.key === "gen-y")).toMatchObject({
      tests: 1,
      attackRate: 1,
      accuracy: 0,
      validRate: 0,
    });
    expect(await drill(result.rates.drill["gen-x"].valid)).toEqual(["g1"]);
    expect(await drill(result.rates.drill["gen-x"].accurate)).toEqual(["g1", "g2"]);
  });

  it("the verifiable share per project and why each other step fails", async () => {
    const result = await verifiabilityAnalytics(db.prisma, {}, NOT_BLIND);
    expect(result.projects.rows).toHaveLength(1);
    expect(result.projects.rows[0]).toMatchObject({
      project: "acme/flow",
      steps: 3,
      verifiable: 1,
      notVerifiable: 2,
      missingDependency: 1,
      semanticMismatch: 1,
    });
    expect(result.projects.rows[0].verifiableShare).toBeCloseTo(1 / 3);
    expect(result.failures.rows.map((r) => [r.step, r.cause])).toEqual([
      ["s2", "missing dependency: tokenize"],
      ["s3", "semantic mismatch"],
    ]);
    expect(await drill(result.projects.drill["acme/flow"].missingDependency)).toEqual(["s2"]);
  });
});

describe("generated tests join their task", () => {
  it("a valid test is promoted into FAIL_TO_PASS as a new, audited version; an invalid or stale one is refused", async () => {
    const { promoteGeneratedTest } = await import("../../lib/analytics/generated-test-actions");
    const curator = await db.prisma.user.create({ data: { email: "promoter@example.test", role: "CURATOR" } });
    const before = await db.prisma.task.findUniqueOrThrow({ where: { id: ids.f8 } });
    await expect(promoteGeneratedTest(db.prisma, curator, ids.g2, before.version)).rejects.toThrow(
      /Only a valid generated test/,
    );
    await expect(promoteGeneratedTest(db.prisma, curator, ids.g1, before.version + 5)).rejects.toThrow(
      /changed while you were working/,
    );
    const result = await promoteGeneratedTest(db.prisma, curator, ids.g1, before.version);
    const after = await db.prisma.task.findUniqueOrThrow({ where: { id: ids.f8 } });
    expect(after.failToPass).toEqual([...before.failToPass, "test_gen.py::test_g1"]);
    expect(after.version).toBe(before.version + 1);
    expect(result.version).toBe(after.version);
    const audit = await db.prisma.auditEvent.findFirstOrThrow({
      where: { entityId: ids.f8, action: "task.generated_test_promoted" },
    });
    expect(audit.actorId).toBe(curator.id);
  });

  it("POST /analytics/generated-tests adds a generator's test for a task and queues its controls", async () => {
    const { POST } = await import("../../app/api/v1/analytics/generated-tests/route");
    const { token } = await apiTokenFor(db.prisma, "CURATOR");
    const body = {
      instanceId: "f6",
      generator: "gen-z",
      testPatch: "diff --git a/t.py b/t.py\n",
      failToPass: ["t.py::test_z"],
    };
    const created = await callRoute(POST, token, "/api/v1/analytics/generated-tests", { method: "POST", body });
    expect(created.status).toBe(201);
    const { taskId, groupId } = (await created.json()) as { taskId: string; groupId: string };
    const row = await db.prisma.task.findUniqueOrThrow({ where: { id: taskId } });
    expect(row).toMatchObject({
      kind: "TEST_GENERATION",
      failToPass: ["t.py::test_z"],
      metadata: { generator: "gen-z", generatedFor: "f6" },
    });
    expect(await db.prisma.validationRun.count({ where: { groupId } })).toBe(2);
    const missing = await callRoute(POST, token, "/api/v1/analytics/generated-tests", {
      method: "POST",
      body: { ...body, instanceId: "no-such-task" },
    });
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { detail: string }).detail).toMatch(/No task has instance id no-such-task/);
  });
});

describe("the analytics API", () => {
  it("answers a table as CSV, exactly the rows the page shows", async () => {
    const { GET } = await import("../../app/api/v1/analytics/generated-tests/route");
    const { token } = await apiTokenFor(db.prisma, "VIEWER");
    const response = await callRoute(GET, token, "/api/v1/analytics/generated-tests?format=csv&table=rates");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const lines = (await response.text()).trim().split("\r\n");
    // each rate is followed by its successes, n and 95 % Wilson interval
    const withInterval = (label: string) => [
      label,
      ...["successes", "n", "95 % CI low", "95 % CI high"].map((part) => `${label} (${part})`),
    ];
    const header = lines[0].split(",");
    expect(header).toEqual([
      "Generator",
      "Tests",
      "Attack (fail without fix)",
      ...withInterval("Attack rate"),
      "Accurate (pass with fix)",
      ...withInterval("Output accuracy"),
      "Accurate ∩ attack",
      ...withInterval("Accuracy ∩ attack rate"),
      "Not measured yet",
    ]);
    const rows = Object.fromEntries(
      lines
        .slice(1)
        .map((line) => [line.split(",")[0], Object.fromEntries(line.split(",").map((cell, i) => [header[i], cell]))]),
    );
    expect(Object.keys(rows)).toEqual(["gen-x", "gen-y", "gen-z"]);
    expect(rows["gen-x"]).toMatchObject({
      Tests: "2",
      "Attack rate": "0.5",
      "Attack rate (successes)": "1",
      "Attack rate (n)": "2",
      "Output accuracy": "1",
    });
    expect(Number(rows["gen-x"]["Attack rate (95 % CI low)"])).toBeCloseTo(0.0945, 4);
    expect(rows["gen-y"]).toMatchObject({
      "Attack rate": "1",
      "Attack rate (n)": "1",
      "Attack rate (95 % CI high)": "1",
      "Output accuracy": "0",
    });
    // gen-z's test (added through the API above) has not run: its rates are empty, not zero, over n = 0
    expect(rows["gen-z"]).toMatchObject({
      "Attack rate": "",
      "Attack rate (n)": "0",
      "Attack rate (95 % CI low)": "",
      "Not measured yet": "1",
    });
  });

  it("a task-list link with a broken slice is refused in words", async () => {
    await expect(withResolvedSlice(db.prisma, "funnel;stage=nowhere", {})).rejects.toThrow(/unknown stage/);
    // and a slice that skipped resolution is refused, not dropped (which would list every task)
    await expect(listTasks(db.prisma, { slice: "funnel;stage=approved" })).rejects.toThrow(/unresolved/);
  });
});
