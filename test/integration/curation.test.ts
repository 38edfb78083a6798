import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import { claimNextTask, reviewQueueLeft } from "../../lib/curation/claim-next-task";
import { recordDecision } from "../../lib/curation/record-decision";
import { overrideVerdict } from "../../lib/curation/override-verdict";
import { updateCurationSettings } from "../../lib/curation/settings";
import { updateTask } from "../../lib/tasks/update-task";
import { saveEnvironmentRevision } from "../../lib/environments/save-revision";
import { taskHistory } from "../../lib/tasks/task-history";
import { getAgreement } from "../../lib/metrics/get-agreement";
import { bulkUpdateTasks, type BulkUpdate } from "../../lib/tasks/bulk-update-tasks";
import { saveView, listSavedViews, deleteView } from "../../lib/views/saved-views";
import type { AppError } from "../../lib/errors/app-error";
import { NOT_BLIND } from "../../lib/auth/blind";

let db: TestDatabase;
let envId: string;
beforeAll(async () => {
  db = await createTestDatabase();
  envId = (await createEnvironment(db.prisma, "acme/queue")).id;
});
afterAll(async () => db.drop());

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error("expected a rejection");
}

describe("review queue lease", () => {
  it("hands 20 concurrent 'next' calls 20 different tasks", async () => {
    const env = await createEnvironment(db.prisma, "acme/concurrent");
    for (let i = 0; i < 25; i++)
      await createTask(db.prisma, env.id, { instanceId: `conc-${String(i).padStart(2, "0")}` });
    const curators = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createUser(db.prisma, "CURATOR", `Curator ${i}`)),
    );
    const claims = await Promise.all(
      curators.map((c) => claimNextTask(db.prisma, c, { filters: "repository=acme/concurrent" }, NOT_BLIND)),
    );
    const taskIds = claims.map((c) => c?.taskId);
    expect(taskIds.every(Boolean)).toBe(true);
    expect(new Set(taskIds).size).toBe(20);
    const leased = await db.prisma.task.findMany({ where: { environmentId: env.id, leasedById: { not: null } } });
    expect(leased).toHaveLength(20);
  });

  it("keeps a leased task from others until the lease expires, and skips what the curator already decided", async () => {
    const env = await createEnvironment(db.prisma, "acme/lease");
    const only = await createTask(db.prisma, env.id, { instanceId: "lease-1" });
    const [alice, bob] = [await createUser(db.prisma), await createUser(db.prisma)];
    const filters = "repository=acme/lease";
    expect((await claimNextTask(db.prisma, alice, { filters }, NOT_BLIND))?.taskId).toBe(only.id);
    expect(await claimNextTask(db.prisma, bob, { filters }, NOT_BLIND)).toBeNull();
    // Alice walks away: her lease runs out
    await db.prisma.task.update({ where: { id: only.id }, data: { leaseExpiresAt: new Date(Date.now() - 60_000) } });
    expect((await claimNextTask(db.prisma, bob, { filters }, NOT_BLIND))?.taskId).toBe(only.id);
    // Bob decides; the lease is released and Bob is not handed it again
    await recordDecision(db.prisma, bob, only.id, { verdict: "APPROVE", version: 1 });
    const after = await db.prisma.task.findUniqueOrThrow({ where: { id: only.id } });
    expect(after.leasedById).toBeNull();
    expect(await claimNextTask(db.prisma, bob, { filters: `${filters}&status=APPROVED` }, NOT_BLIND)).toBeNull();
  });

  it("moves a curator's lease to the next task and honours skipped tasks", async () => {
    const env = await createEnvironment(db.prisma, "acme/skip");
    const first = await createTask(db.prisma, env.id, {
      instanceId: "skip-1",
      createdAt: new Date(Date.UTC(2026, 0, 2)),
    });
    const second = await createTask(db.prisma, env.id, {
      instanceId: "skip-2",
      createdAt: new Date(Date.UTC(2026, 0, 1)),
    });
    const carol = await createUser(db.prisma);
    const filters = "repository=acme/skip";
    expect((await claimNextTask(db.prisma, carol, { filters }, NOT_BLIND))?.taskId).toBe(first.id);
    expect((await claimNextTask(db.prisma, carol, { filters, skip: [first.id] }, NOT_BLIND))?.taskId).toBe(second.id);
    const firstNow = await db.prisma.task.findUniqueOrThrow({ where: { id: first.id } });
    expect(firstNow.leasedById).toBeNull();
  });
});

describe("review queue: what is left", () => {
  it("counts the view's tasks this curator has not decided, leased or not, and only theirs", async () => {
    const env = await createEnvironment(db.prisma, "acme/left");
    const tasks = [];
    for (let i = 0; i < 3; i++)
      tasks.push(await createTask(db.prisma, env.id, { instanceId: `left-${i}`, automatedVerdict: "VALID" }));
    const [dana, erin] = [await createUser(db.prisma, "CURATOR"), await createUser(db.prisma, "CURATOR")];
    const filters = "repository=acme/left";
    expect(await reviewQueueLeft(db.prisma, dana, filters, NOT_BLIND)).toEqual({ left: 3 });
    await claimNextTask(db.prisma, erin, { filters }, NOT_BLIND);
    expect(await reviewQueueLeft(db.prisma, dana, filters, NOT_BLIND)).toEqual({ left: 3 });
    await recordDecision(db.prisma, dana, tasks[0].id, {
      verdict: "NEEDS_CHANGES",
      reasons: ["OTHER"],
      comment: "clearer issue text",
      version: tasks[0].version,
    });
    expect(await reviewQueueLeft(db.prisma, dana, filters, NOT_BLIND)).toEqual({ left: 2 });
    // sent back, the task is no longer pending: it leaves the queue for everyone
    expect(await reviewQueueLeft(db.prisma, erin, filters, NOT_BLIND)).toEqual({ left: 2 });
    expect(await reviewQueueLeft(db.prisma, erin, `${filters}&status=PENDING&status=NEEDS_CHANGES`, NOT_BLIND)).toEqual(
      { left: 3 },
    );
  });
});

describe("decisions", () => {
  it("needs reasons to reject, a comment for 'Other', and a justification to contradict automation", async () => {
    const curator = await createUser(db.prisma);
    const valid = await createTask(db.prisma, envId, { automatedVerdict: "VALID" });
    expect(
      (await rejection(recordDecision(db.prisma, curator, valid.id, { verdict: "REJECT", version: 1 }))).code,
    ).toBe("UNPROCESSABLE");
    expect(
      (
        await rejection(
          recordDecision(db.prisma, curator, valid.id, { verdict: "NEEDS_CHANGES", reasons: ["OTHER"], version: 1 }),
        )
      ).message,
    ).toMatch(/comment/);
    const noJustification = await rejection(
      recordDecision(db.prisma, curator, valid.id, { verdict: "REJECT", reasons: ["TRIVIAL"], version: 1 }),
    );
    expect(noJustification.message).toMatch(/Automation judged this task VALID/);
    const ok = await recordDecision(db.prisma, curator, valid.id, {
      verdict: "REJECT",
      reasons: ["TRIVIAL"],
      justification: "The fix is a one-line typo",
      version: 1,
    });
    expect(ok).toMatchObject({ curationStatus: "REJECTED", version: 2 });
    expect(ok.decision.overridesAutomated).toBe(true);
    const history = await taskHistory(db.prisma, valid.id, NOT_BLIND);
    expect(history[0]).toMatchObject({
      action: "task.decided_overriding_automation",
      after: { justification: "The fix is a one-line typo" },
    });
  });

  it("counts a task APPROVED only after the configured number of distinct approvals", async () => {
    const admin = await createUser(db.prisma, "ADMIN");
    await updateCurationSettings(db.prisma, admin.id, { approvalsRequired: 2 });
    try {
      const [a, b] = [await createUser(db.prisma), await createUser(db.prisma)];
      const task = await createTask(db.prisma, envId, { automatedVerdict: "VALID" });
      const first = await recordDecision(db.prisma, a, task.id, { verdict: "APPROVE", version: 1 });
      expect(first.curationStatus).toBe("PENDING");
      // the same curator approving twice is still one approval
      const again = await recordDecision(db.prisma, a, task.id, { verdict: "APPROVE", version: first.version });
      expect(again.curationStatus).toBe("PENDING");
      const second = await recordDecision(db.prisma, b, task.id, { verdict: "APPROVE", version: again.version });
      expect(second.curationStatus).toBe("APPROVED");
    } finally {
      await updateCurationSettings(db.prisma, admin.id, { approvalsRequired: 1 });
    }
  });

  it("refuses a decision on a stale version with what changed, and stores nothing", async () => {
    const [ada, bea] = [await createUser(db.prisma, "CURATOR", "Ada"), await createUser(db.prisma, "CURATOR", "Bea")];
    const task = await createTask(db.prisma, envId, { automatedVerdict: "VALID" });
    await recordDecision(db.prisma, ada, task.id, { verdict: "APPROVE", version: 1 });
    const conflict = await rejection(
      recordDecision(db.prisma, bea, task.id, { verdict: "NEEDS_CHANGES", reasons: ["TESTS_TOO_WEAK"], version: 1 }),
    );
    expect(conflict.code).toBe("CONFLICT");
    expect(conflict.message).toMatch(/Ada saved version 2; you had version 1/);
    expect(conflict.details).toMatchObject({
      yourVersion: 1,
      currentVersion: 2,
      current: { curationStatus: "APPROVED" },
      changes: [{ action: "task.decided", actor: "Ada" }],
    });
    expect(await db.prisma.curationDecision.count({ where: { taskId: task.id } })).toBe(1);
  });

  it("concurrent decisions on one version: exactly one wins", async () => {
    const curators = await Promise.all(Array.from({ length: 5 }, () => createUser(db.prisma)));
    const task = await createTask(db.prisma, envId, { automatedVerdict: "VALID" });
    const results = await Promise.allSettled(
      curators.map((c) => recordDecision(db.prisma, c, task.id, { verdict: "APPROVE", version: 1 })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(
      results.filter((r) => r.status === "rejected").map((r) => ((r as PromiseRejectedResult).reason as AppError).code),
    ).toEqual(Array(4).fill("CONFLICT"));
  });

  it("overrides the automated verdict only with a justification, audited", async () => {
    const curator = await createUser(db.prisma);
    const task = await createTask(db.prisma, envId, { automatedVerdict: "INVALID" });
    expect((await rejection(overrideVerdict(db.prisma, curator, task.id, { verdict: "VALID", version: 1 }))).code).toBe(
      "UNPROCESSABLE",
    );
    await overrideVerdict(db.prisma, curator, task.id, {
      verdict: "VALID",
      justification: "The failure was a docker hiccup",
      version: 1,
    });
    // with the override, approving no longer contradicts automation
    const approved = await recordDecision(db.prisma, curator, task.id, { verdict: "APPROVE", version: 2 });
    expect(approved.decision.overridesAutomated).toBe(false);
    expect((await taskHistory(db.prisma, task.id, NOT_BLIND)).map((e) => e.action)).toEqual([
      "task.decided",
      "task.verdict_overridden",
    ]);
  });
});

describe("task edits", () => {
  it("the second of two edits from the same version gets a conflict, the first edit stays", async () => {
    const [ada, bea] = [await createUser(db.prisma, "CURATOR", "Ada"), await createUser(db.prisma, "CURATOR", "Bea")];
    const task = await createTask(db.prisma, envId, {});
    const first = await updateTask(db.prisma, ada, task.id, { version: 1, labels: ["needs-look"], difficulty: "HARD" });
    expect(first).toEqual({ version: 2, changed: ["difficulty", "labels"] });
    const conflict = await rejection(updateTask(db.prisma, bea, task.id, { version: 1, labels: ["other"] }));
    expect(conflict.code).toBe("CONFLICT");
    expect(conflict.details).toMatchObject({
      current: { labels: ["needs-look"], difficulty: "HARD" },
      changes: [{ action: "task.edited", actor: "Ada", after: { labels: ["needs-look"] } }],
    });
    const stored = await db.prisma.task.findUniqueOrThrow({ where: { id: task.id } });
    expect(stored.labels).toEqual(["needs-look"]);
  });

  it("bulk-labels and assigns, auditing each task", async () => {
    const curator = await createUser(db.prisma);
    const tasks = [await createTask(db.prisma, envId, { labels: ["a"] }), await createTask(db.prisma, envId, {})];
    const ids = tasks.map((t) => t.id);
    const queueValidation = async () => expect.unreachable("labels and assignments queue no validation");
    const bulk = (input: BulkUpdate) => bulkUpdateTasks(db.prisma, curator, input, queueValidation);
    expect(await bulk({ action: "label", taskIds: ids, add: ["batch-7"], remove: ["a"] })).toEqual({
      matched: 2,
      changed: 2,
      missing: 0,
    });
    expect(await bulk({ action: "assign", taskIds: [...ids, "missing"], assigneeId: curator.id })).toEqual({
      matched: 2,
      changed: 2,
      missing: 1,
    });
    const stored = await db.prisma.task.findMany({ where: { id: { in: ids } } });
    expect(stored.map((t) => [t.labels, t.assigneeId, t.version])).toEqual([
      [["batch-7"], curator.id, 3],
      [["batch-7"], curator.id, 3],
    ]);
    // each task's history names who changed what, label and assignment apart
    const events = await db.prisma.auditEvent.findMany({
      where: { entityType: "task", entityId: { in: ids } },
      orderBy: { createdAt: "asc" },
    });
    for (const task of tasks) {
      const own = events
        .filter((e) => e.entityId === task.id)
        .map((e) => ({ action: e.action, actorId: e.actorId, before: e.before, after: e.after }));
      expect(own).toEqual([
        {
          action: "task.bulk_label",
          actorId: curator.id,
          before: { labels: task.labels, version: 1 },
          after: { labels: ["batch-7"], version: 2 },
        },
        {
          action: "task.bulk_assign",
          actorId: curator.id,
          before: { assigneeId: null, version: 2 },
          after: { assigneeId: curator.id, version: 3 },
        },
      ]);
    }
    // a bulk action that changes nothing writes no history
    expect(await bulk({ action: "assign", taskIds: ids, assigneeId: curator.id })).toEqual({
      matched: 2,
      changed: 0,
      missing: 0,
    });
    expect(await db.prisma.auditEvent.count({ where: { entityId: { in: ids } } })).toBe(4);
  });
});

describe("environment revisions", () => {
  it("an edit is a new revision with a reason; a second edit from the same base is a conflict that keeps the first", async () => {
    const [ada, bea] = [await createUser(db.prisma, "CURATOR", "Ada"), await createUser(db.prisma, "CURATOR", "Bea")];
    const env = await createEnvironment(db.prisma, "acme/recipes");
    const saved = await saveEnvironmentRevision(db.prisma, ada, env.id, {
      baseRevision: 1,
      dockerfile: "FROM base\n",
      evalScript: "#!/bin/bash\npytest -x\n",
      reason: "stop at first failure",
    });
    expect(saved).toMatchObject({ revision: { number: 2, reason: "stop at first failure" }, dockerfileChanged: false });
    const conflict = await rejection(
      saveEnvironmentRevision(db.prisma, bea, env.id, {
        baseRevision: 1,
        dockerfile: "FROM other\n",
        evalScript: "x",
        reason: "mine",
      }),
    );
    expect(conflict.code).toBe("CONFLICT");
    expect(conflict.details).toMatchObject({
      yourBaseRevision: 1,
      current: { number: 2, author: "Ada", evalScript: "#!/bin/bash\npytest -x\n" },
    });
    const revisions = await db.prisma.environmentRevision.findMany({
      where: { environmentId: env.id },
      orderBy: { number: "asc" },
    });
    expect(revisions.map((r) => r.number)).toEqual([1, 2]);
    const current = await db.prisma.environment.findUniqueOrThrow({ where: { id: env.id } });
    expect(current.currentRevisionId).toBe(revisions[1].id);
    const task = await createTask(db.prisma, env.id, {});
    expect((await taskHistory(db.prisma, task.id, NOT_BLIND))[0]).toMatchObject({
      action: "environment.revised",
      actor: { name: "Ada" },
    });
  });

  it("concurrent saves from one base: exactly one revision lands", async () => {
    const curators = await Promise.all(Array.from({ length: 4 }, () => createUser(db.prisma)));
    const env = await createEnvironment(db.prisma, "acme/race");
    const results = await Promise.allSettled(
      curators.map((c, i) =>
        saveEnvironmentRevision(db.prisma, c, env.id, {
          baseRevision: 1,
          dockerfile: `FROM v${i}\n`,
          evalScript: "e",
          reason: `try ${i}`,
        }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await db.prisma.environmentRevision.count({ where: { environmentId: env.id } })).toBe(2);
  });
});

describe("agreement and saved views", () => {
  it("computes Cohen's kappa for a curator pair from stored decisions", async () => {
    const env = await createEnvironment(db.prisma, "acme/agree");
    const [a, b] = [await createUser(db.prisma, "CURATOR", "Ann"), await createUser(db.prisma, "CURATOR", "Ben")];
    const verdicts: ["APPROVE" | "REJECT", "APPROVE" | "REJECT"][] = [
      ["APPROVE", "APPROVE"],
      ["REJECT", "REJECT"],
      ["APPROVE", "REJECT"],
      ["APPROVE", "APPROVE"],
    ];
    for (const [va, vb] of verdicts) {
      const task = await createTask(db.prisma, env.id);
      await db.prisma.curationDecision.createMany({
        data: [
          { taskId: task.id, curatorId: a.id, verdict: va },
          { taskId: task.id, curatorId: b.id, verdict: vb },
        ],
      });
    }
    const report = await getAgreement(db.prisma, {}, NOT_BLIND);
    const pair = report.pairs.find((p) => [p.nameA, p.nameB].sort().join() === "Ann,Ben");
    expect(pair?.kappa).toBeCloseTo(0.5, 10);
    expect(
      report.disagreements.some(
        (d) =>
          d.verdicts
            .map((v) => v.name)
            .sort()
            .join() === "Ann,Ben",
      ),
    ).toBe(true);
  });

  it("saves views per user, canonicalised, replacing by name", async () => {
    const [u1, u2] = [await createUser(db.prisma), await createUser(db.prisma)];
    await saveView(db.prisma, u1.id, { name: "Flaky", query: "?verdict=FLAKY&source=SWE_GYM&source=OPENSWE" });
    const replaced = await saveView(db.prisma, u1.id, {
      name: "Flaky",
      query: "verdict=FLAKY&bogus=1&difficulty=NOPE",
    });
    expect(replaced.query).toBe("verdict=FLAKY");
    expect((await listSavedViews(db.prisma, u1.id)).map((v) => v.name)).toEqual(["Flaky"]);
    expect(await listSavedViews(db.prisma, u2.id)).toEqual([]);
    expect((await rejection(deleteView(db.prisma, u2.id, replaced.id))).code).toBe("NOT_FOUND");
  });
});
