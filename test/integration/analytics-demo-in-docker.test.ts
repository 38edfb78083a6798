import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { dockerForTests } from "../helpers/docker";
import { startTestWorker, waitFor } from "../helpers/worker";
import { seedDemo } from "../../prisma/seed/seed-demo";
import { reviewerAnalytics, ReviewerQuerySchema } from "../../lib/analytics/reviewers";
import { generatedTestAnalytics, GeneratedTestQuerySchema } from "../../lib/analytics/generated-tests";
import { verifiabilityAnalytics } from "../../lib/analytics/verifiability";
import { computeFunnel, FunnelQuerySchema } from "../../lib/analytics/funnel";
import type { WorkerRunner } from "../../workers/runner";
import { NOT_BLIND } from "../../lib/auth/blind";

// What a new user sees: the demo seed queues the analytics demo's validations, a worker runs
// them in real containers, and every analytics page then has real figures — the ones
// prisma/seed/demo-analytics/README.md promises.
const docker = await dockerForTests();

describe.skipIf(!docker.ready)("the analytics demo, validated for real", () => {
  let database: TestDatabase;
  let worker: WorkerRunner;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDemo(database.prisma, { log: () => {}, env: { DEMO_PASSWORD: "demo-password" } });
    worker = await startTestWorker(database.url);
    await waitFor(
      "the demo's queued runs to finish",
      async () =>
        (await database.prisma.validationRun.count({ where: { status: { in: ["QUEUED", "RUNNING"] } } })) === 0,
      // a hang detector, not a speed bound: the demo's validations took over 400 s with both cores
      // busy and another suite beside this one
      900_000,
      1_000,
    );
  }, 960_000);

  afterAll(async () => {
    await worker?.stop();
    await database?.drop();
  });

  it("generated tests: one valid, one inaccurate, one that never attacks", async () => {
    const result = await generatedTestAnalytics(database.prisma, GeneratedTestQuerySchema.parse({}), NOT_BLIND);
    expect(result.rates.rows.find((r) => r.key === "demo-test-writer")).toMatchObject({
      tests: 2,
      attackRate: 1,
      accuracy: 0.5,
      validRate: 0.5,
    });
    expect(result.rates.rows.find((r) => r.key === "demo-happy-path-writer")).toMatchObject({
      tests: 1,
      attackRate: 0,
      accuracy: 1,
      validRate: 0,
    });
  });

  it("verifiability: median passes, mode misses the _most_common it was promised", async () => {
    const result = await verifiabilityAnalytics(database.prisma, {}, NOT_BLIND);
    expect(result.projects.rows[0]).toMatchObject({
      project: "swe-curator-demo/calc",
      steps: 2,
      verifiable: 1,
      notVerifiable: 1,
      verifiableShare: 0.5,
      missingDependency: 1,
    });
    expect(result.failures.rows[0]).toMatchObject({
      step: "demo-flow__calc-mode",
      cause: "missing dependency: _most_common",
    });
  });

  it("reviewers: the one that ran a reproducer is right, the one that skimmed is wrong both ways", async () => {
    const result = await reviewerAnalytics(database.prisma, ReviewerQuerySchema.parse({}), NOT_BLIND);
    expect(result.measures.rows.find((r) => r.key === "demo-reproducing-reviewer")).toMatchObject({
      scored: 2,
      accuracy: 1,
      reproducerShare: 1,
    });
    expect(result.measures.rows.find((r) => r.key === "demo-skimming-reviewer")).toMatchObject({
      scored: 2,
      accuracy: 0,
      falseApprovalRate: 1,
      falseRejectionRate: 1,
      reproducerShare: 0,
    });
    expect(result.causes.rows.find((r) => r.key === "insufficient_reproducer_coverage")?.falseApproval).toBe(1);
    // the revision loop: the patch the reproducing reviewer sent back resolves after revision
    expect(result.revisions.rows).toEqual([
      expect.objectContaining({
        reviewer: "demo-reproducing-reviewer",
        generator: "demo-none-agent",
        measured: 1,
        resolveRateBefore: 0,
        resolveRateAfter: 1,
        fixed: 1,
      }),
    ]);
  });

  it("the funnel counts the validated steps past the build", async () => {
    const funnel = await computeFunnel(database.prisma, FunnelQuerySchema.parse({ source: "SWE_FLOW" }), NOT_BLIND);
    // median is valid and awaits a curator; mode fails its positive control
    expect(funnel.stages.rows.map((r) => r.tasks)).toEqual([2, 2, 2, 2, 1, 1, 0]);
  });
});
