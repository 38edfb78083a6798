import { afterAll, beforeAll } from "vitest";
import { createApiToken } from "../../lib/auth/api-tokens";
import { createCampaign } from "../../lib/campaigns/create-campaign";
import { createRelease } from "../../lib/releases/create-release";
import type { PrismaClient } from "../../lib/db/client";
import type { Role, TaskKind } from "../../lib/db/enums";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import { createTestDatabase, type TestDatabase } from "../helpers/database";

// A blind campaign and the data blindness must hide, for the blind-campaign security tests.
// The campaign (hideVerdict) takes every task of acme/blindfold: an issue fix, a TDD step and a
// generated test, so each analytics page counts one. The annotator has labelled none of them,
// so they are blind on all three. acme/open holds the same kinds of things on a task of no
// campaign, which the annotator may see. Every hidden task has a judged verdict, an override
// with a justification, a resolving candidate (and its revision), runs with logs, another
// curator's decision and audit events that carry the verdict; every text that blindness hides
// holds CANARY, so an answer that carries one has leaked it.

export const CANARY = "BLIND-CANARY";
export const STEP_LABEL = "accepted a symptom fix";

export type Person = { id: string; role: Role; token: string };

export type BlindWorld = {
  admin: Person;
  annotator: Person;
  outsider: Person;
  campaignId: string;
  hidden: { taskIds: string[]; instanceIds: string[]; objectIds: string[]; trajectoryId: string; runId: string };
  visible: { taskId: string; trajectoryId: string };
  pools: Record<string, string[]>;
};

async function person(db: PrismaClient, role: Role, name: string): Promise<Person> {
  const user = await createUser(db, role, name);
  return { id: user.id, role, token: (await createApiToken(db, user.id, { name })).token };
}

type Made = { taskId: string; objectIds: string[]; trajectoryIds: string[]; runIds: string[]; buildId: string };

/** One task with everything that judges it: candidates, trajectories (a step labelled), runs, a decision and audit events. */
async function judgedTask(
  db: PrismaClient,
  env: Awaited<ReturnType<typeof createEnvironment>>,
  instanceId: string,
  kind: TaskKind,
  decider: Person,
  generatedFor?: string,
): Promise<Made> {
  const task = await createTask(db, env.id, {
    instanceId,
    kind,
    automatedVerdict: "INVALID",
    failureClass: "NEGATIVE_CONTROL_PASSED",
    curationStatus: "APPROVED",
  });
  if (generatedFor)
    await db.task.update({ where: { id: task.id }, data: { metadata: { generator: "gen-tests", generatedFor } } });
  const candidate = await db.candidatePatch.create({
    data: { taskId: task.id, generator: "gen-x", patch: "diff --git a/w.py b/w.py\n", resolved: true },
  });
  const revised = await db.candidatePatch.create({
    data: {
      taskId: task.id,
      generator: "gen-x-rev",
      patch: "diff --git a/w.py b/w.py\n",
      resolved: false,
      metadata: { revision_of: "gen-x", review_id: `review-${instanceId}` },
    },
  });
  const solver = await db.trajectory.create({
    data: {
      externalId: `solver-${instanceId}`,
      taskId: task.id,
      candidatePatchId: candidate.id,
      role: "SOLVER",
      format: "SWE_AGENT",
      model: "solver-model",
      stepCount: 2,
    },
  });
  const reviewer = await db.trajectory.create({
    data: {
      externalId: `reviewer-${instanceId}`,
      taskId: task.id,
      candidatePatchId: candidate.id,
      role: "REVIEWER",
      format: "OTHER",
      model: "reviewer-model",
      decision: "APPROVE",
      confidence: 0.8,
      stepCount: 1,
      metadata: { reviewId: `review-${instanceId}` },
    },
  });
  for (const [trajectory, count] of [
    [solver, 2],
    [reviewer, 1],
  ] as const) {
    for (let index = 0; index < count; index++) {
      await db.trajectoryStep.create({
        data: {
          trajectoryId: trajectory.id,
          index,
          thought: "The widget misbehaves when resized.",
          action: "python -m pytest test_w.py",
          observation: "1 passed",
          kind: "RUN",
        },
      });
    }
  }
  await db.stepAnnotation.create({
    data: { trajectoryId: reviewer.id, stepIndex: 0, label: STEP_LABEL, authorId: decider.id },
  });
  const build = await db.build.create({
    data: {
      revisionId: env.revision.id,
      status: "SUCCEEDED",
      imageTag: `img-${env.key.replace(/\W/g, "-")}-${kind.toLowerCase()}`,
      log: "built",
      finishedAt: new Date(),
    },
  });
  const run = (data: {
    kind: "NEGATIVE_CONTROL" | "POSITIVE_CONTROL" | "CANDIDATE";
    status?: "SUCCEEDED" | "FAILED";
    attempt?: number;
    candidatePatchId?: string;
  }) =>
    db.validationRun.create({
      data: {
        taskId: task.id,
        revisionId: env.revision.id,
        buildId: build.id,
        groupId: `g-${instanceId}-${data.kind}`,
        status: "SUCCEEDED",
        startedAt: new Date(),
        finishedAt: new Date(),
        exitCode: 1,
        log: "ran",
        ...data,
      },
    });
  const runs = [
    await run({ kind: "NEGATIVE_CONTROL" }),
    await run({ kind: "POSITIVE_CONTROL" }),
    await run({ kind: "NEGATIVE_CONTROL", status: "FAILED", attempt: 1 }),
    await run({ kind: "CANDIDATE", candidatePatchId: candidate.id }),
    await run({ kind: "CANDIDATE", candidatePatchId: revised.id }),
  ];
  const decision = await db.curationDecision.create({
    data: {
      taskId: task.id,
      curatorId: decider.id,
      verdict: "APPROVE",
      comment: "fine",
      overridesAutomated: true,
      justification: "checked by hand",
    },
  });
  for (const action of [
    "verdict.automated",
    "task.verdict_overridden",
    "task.decided",
    "task.decision_undone",
    "import.update",
  ]) {
    await db.auditEvent.create({
      data: {
        actorId: decider.id,
        entityType: "task",
        entityId: task.id,
        action,
        before: { automatedVerdict: "PENDING" },
        after: { automatedVerdict: "INVALID" },
      },
    });
  }
  await db.auditEvent.create({
    data: {
      actorId: decider.id,
      entityType: "task",
      entityId: task.id,
      action: "task.edited",
      before: { labels: [] },
      after: { labels: ["resize"] },
    },
  });
  return {
    taskId: task.id,
    objectIds: [task.id, candidate.id, revised.id, solver.id, reviewer.id, decision.id, ...runs.map((r) => r.id)],
    trajectoryIds: [solver.id, reviewer.id],
    runIds: runs.map((r) => r.id),
    buildId: build.id,
  };
}

/** Everything blindness hides, set to one of two judgements: an answer that changes between them tells the hidden judgement. */
export async function judge(db: PrismaClient, taskIds: string[], variant: 0 | 1) {
  const [verdict, override, resolved, decision] =
    variant === 0 ? ["INVALID", "VALID", true, "APPROVE"] : ["VALID", "INVALID", false, "REJECT"];
  const text = `${CANARY}-${variant}`;
  await db.$executeRawUnsafe(
    `UPDATE tasks SET automated_verdict = $1::"AutomatedVerdict", failure_class = ${variant === 0 ? `'NEGATIVE_CONTROL_PASSED'` : "NULL"},
       verdict_override = $2::"AutomatedVerdict", override_justification = $3::text WHERE id = ANY($4::text[])`,
    verdict,
    override,
    `${text} override`,
    taskIds,
  );
  await db.$executeRawUnsafe(
    `UPDATE candidate_patches SET resolved = (generator = 'gen-x') = $1::boolean WHERE task_id = ANY($2::text[])`,
    resolved,
    taskIds,
  );
  await db.$executeRawUnsafe(
    `UPDATE validation_runs SET resolved = CASE WHEN kind = 'CANDIDATE' THEN $1::boolean END, exit_code = $2::int, log = $3::text, error_message = $3::text,
       failure_class = CASE WHEN $1::boolean THEN NULL WHEN kind = 'NEGATIVE_CONTROL' THEN 'NEGATIVE_CONTROL_PASSED'::"FailureClass" WHEN kind = 'POSITIVE_CONTROL' THEN 'POSITIVE_CONTROL_FAILED'::"FailureClass" END
     WHERE task_id = ANY($4::text[])`,
    resolved,
    variant,
    `${text} run log\nTraceback: AssertionError in test_w.py`,
    taskIds,
  );
  await db.$executeRawUnsafe(
    `UPDATE curation_decisions SET verdict = $1::"DecisionVerdict", reasons = $2::"DecisionReason"[], overrides_automated = $3::boolean, comment = $4::text, justification = $4::text WHERE task_id = ANY($5::text[])`,
    decision,
    variant === 0 ? [] : ["TESTS_TOO_WEAK"],
    resolved,
    `${text} decision`,
    taskIds,
  );
  await db.$executeRawUnsafe(
    `UPDATE audit_events SET after = jsonb_build_object('automatedVerdict', $1::text, 'justification', $2::text) WHERE entity_type = 'task' AND entity_id = ANY($3::text[]) AND action <> 'task.edited'`,
    verdict,
    `${text} audit`,
    taskIds,
  );
}

/** The blind campaign, its annotator, and the hidden and visible data; hidden data set to judgement 0. */
export async function seedBlindWorld(db: PrismaClient): Promise<BlindWorld> {
  const admin = await person(db, "ADMIN", "Ada Admin");
  const annotator = await person(db, "CURATOR", "Bea Blind");
  const outsider = await person(db, "CURATOR", "Cy Curator");
  const decider = await person(db, "CURATOR", "Dee Decider");
  const blindEnv = await createEnvironment(db, "acme/blindfold");
  const openEnv = await createEnvironment(db, "acme/open");
  const hidden = [
    await judgedTask(db, blindEnv, "acme__blindfold-1", "ISSUE_FIX", decider),
    await judgedTask(db, blindEnv, "acme__blindfold-2", "TDD_STEP", decider),
    await judgedTask(db, blindEnv, "acme__blindfold-3", "TEST_GENERATION", decider, "acme__open-1"),
  ];
  const visible = await judgedTask(db, openEnv, "acme__open-1", "ISSUE_FIX", decider);
  await judgedTask(db, openEnv, "acme__open-2", "TDD_STEP", decider);
  await judgedTask(db, openEnv, "acme__open-3", "TEST_GENERATION", decider, "acme__open-1");
  const campaign = await createCampaign(db, admin, {
    name: "blindfold",
    viewQuery: "repository=acme/blindfold",
    annotatorIds: [annotator.id],
    overlap: 1,
  });
  const taskIds = hidden.map((h) => h.taskId);
  await judge(db, taskIds, 0);
  const all = await db.task.findMany({ select: { id: true } });
  const runs = await db.validationRun.findMany({ select: { id: true } });
  const trajectories = await db.trajectory.findMany({ select: { id: true } });
  const builds = await db.build.findMany({ select: { id: true } });
  // two releases of the curated set, so the walk reads releases and their diff as the annotator
  const releases = [];
  for (const name of ["blind-v1", "blind-v2"]) releases.push(await createRelease(db, admin, { name }));
  return {
    admin,
    annotator,
    outsider,
    campaignId: campaign.id,
    hidden: {
      taskIds,
      instanceIds: ["acme__blindfold-1", "acme__blindfold-2", "acme__blindfold-3"],
      objectIds: hidden.flatMap((h) => h.objectIds),
      trajectoryId: hidden[0].trajectoryIds[0],
      runId: hidden[0].runIds[0],
    },
    visible: { taskId: visible.taskId, trajectoryId: visible.trajectoryIds[0] },
    pools: {
      tasks: [...all.map((t) => t.id), "acme__blindfold-1"],
      runs: runs.map((r) => r.id),
      trajectories: trajectories.map((t) => t.id),
      environments: [blindEnv.id, openEnv.id],
      builds: builds.map((b) => b.id),
      campaigns: [campaign.id],
      users: [annotator.id, decider.id],
      releases: releases.map((r) => r.id),
    },
  };
}

/** The file's own database with the blind world seeded before its tests, dropped after them. */
export function withBlindWorld(): { readonly db: TestDatabase; readonly world: BlindWorld } {
  const state = {} as { db: TestDatabase; world: BlindWorld };
  beforeAll(async () => {
    state.db = await createTestDatabase();
    state.world = await seedBlindWorld(state.db.prisma);
  });
  afterAll(async () => state.db.drop());
  return state;
}
