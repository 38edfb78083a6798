import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask } from "../fixtures/factories/curation";
import { FailureClass, TaskKind } from "../../lib/db/enums";
import { createPrismaClient } from "../../lib/db/client";
import { loadReviews, readReviews } from "../../lib/analytics/reviewers";
import { loadGeneratedTests, readGeneratedTests } from "../../lib/analytics/generated-tests";
import { loadSteps, readSteps } from "../../lib/analytics/verifiability";
import { loadRevisionPairs, readRevisionPairs } from "../../lib/analytics/revisions";
import { byCodePoints, foldAnalyticsChanges, lastFactRead } from "../../lib/analytics/fact-cache";

// The analytics pages reuse their facts until a write commits. Whatever the writes, a page
// must show what reading the tables now shows: a cached fact that outlived a change would put
// a wrong number in front of a reviewer.

let db: TestDatabase;
let environmentId: string;
let revisionId: string;
let made = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  const environment = await createEnvironment(db.prisma, "acme/fact-cache");
  environmentId = environment.id;
  revisionId = environment.revision.id;
});
afterAll(async () => db.drop());

async function expectCachedToEqualRead() {
  const p = db.prisma;
  const [reviews, tests, steps, pairs] = await Promise.all([
    loadReviews(p),
    loadGeneratedTests(p),
    loadSteps(p),
    loadRevisionPairs(p),
  ]);
  expect(reviews).toEqual(await readReviews(p));
  expect(tests).toEqual(await readGeneratedTests(p));
  expect(steps).toEqual(await readSteps(p));
  expect(pairs).toEqual(await readRevisionPairs(p));
}

const kinds = fc.constantFrom(TaskKind.ISSUE_FIX, TaskKind.TDD_STEP, TaskKind.TEST_GENERATION);
const controlClass = fc.constantFrom(
  null,
  FailureClass.POSITIVE_CONTROL_FAILED,
  FailureClass.NEGATIVE_CONTROL_PASSED,
  FailureClass.BUILD_ERROR,
);

const change = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant("task" as const), kind: kinds }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("control" as const),
      pick: fc.nat(),
      positive: fc.boolean(),
      failureClass: controlClass,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("review" as const),
      pick: fc.nat(),
      /** the candidate may be another task's: its task's test patch then decides this review's ground truth */
      candidateOf: fc.option(fc.nat()),
      approve: fc.boolean(),
      resolved: fc.option(fc.boolean()),
      claimed: fc.option(fc.boolean()),
      touchesTests: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("revise" as const), pick: fc.nat(), resolved: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("rerun" as const),
      pick: fc.nat(),
      failureClass: controlClass,
      log: fc.string({ maxLength: 20 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("relabel" as const), model: fc.constantFrom("rev-a", "rev-b") }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("move" as const), repo: fc.constantFrom("acme/one", "acme/two") }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("delete" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("unreview" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("rename" as const), pick: fc.nat(), toOriginal: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("edit" as const), pick: fc.nat(), guarded: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("reassign" as const), pick: fc.nat(), to: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("recipe" as const), guarded: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("concurrent" as const),
      pick: fc.nat(),
      model: fc.constantFrom("rev-c", "rev-d"),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: "read" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "fold" as const }) },
);
type Change = typeof change extends fc.Arbitrary<infer T> ? T : never;

async function pick<T extends { id: string }>(rows: T[], n: number): Promise<T | null> {
  return rows.length ? rows[n % rows.length] : null;
}
const tasks = () => db.prisma.task.findMany({ select: { id: true }, orderBy: { id: "asc" } });
const runs = () => db.prisma.validationRun.findMany({ select: { id: true }, orderBy: { id: "asc" } });
const reviews = () =>
  db.prisma.trajectory.findMany({ where: { role: "REVIEWER" }, select: { id: true }, orderBy: { id: "asc" } });
const candidates = () => db.prisma.candidatePatch.findMany({ select: { id: true }, orderBy: { id: "asc" } });
const modifies = (path: string) =>
  `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+b\n`;
const TOUCHES_GUARDED_PATH = modifies("pkg/helpers.py");
/** test patches: one changes pkg/helpers.py (a candidate touching it is not believed without our run), one does not */
const testPatch = (guarded: boolean) => modifies(guarded ? "pkg/helpers.py" : "pkg/fixtures.py");

/** A reviewer's verdict on a candidate, by the one model the figures are read for. */
const createReview = (taskId: string, candidatePatchId: string, decision: "APPROVE" | "REQUEST_CHANGES") =>
  db.prisma.trajectory.create({
    data: {
      externalId: `cache-review-${made}`,
      taskId,
      candidatePatchId,
      role: "REVIEWER",
      format: "OTHER",
      model: "rev-a",
      decision,
      stepCount: 1,
      metadata: { reviewId: `r-${made}` },
    },
  });

async function apply(c: Change): Promise<unknown> {
  const p = db.prisma;
  switch (c.op) {
    case "task": {
      const task = await createTask(p, environmentId, { instanceId: `cache-${++made}`, kind: c.kind });
      const generated = c.kind === TaskKind.TEST_GENERATION;
      return (
        generated &&
        p.task.update({ where: { id: task.id }, data: { metadata: { generator: "gen-x", generatedFor: "cache-1" } } })
      );
    }
    case "control": {
      const task = await pick(await tasks(), c.pick);
      const kind = c.positive ? "POSITIVE_CONTROL" : "NEGATIVE_CONTROL";
      return (
        task &&
        p.validationRun.create({
          data: {
            taskId: task.id,
            revisionId,
            kind,
            status: "SUCCEEDED",
            failureClass: c.failureClass,
            finishedAt: new Date(Date.now() + ++made),
            log: "E   failed",
          },
        })
      );
    }
    case "review": {
      const all = await tasks();
      const task = await pick(all, c.pick);
      if (!task) return null;
      const candidateTask = c.candidateOf === null ? task : await pick(all, c.candidateOf);
      const candidate = await p.candidatePatch.create({
        data: {
          taskId: candidateTask!.id,
          generator: `gen-${++made}`,
          patch: c.touchesTests ? TOUCHES_GUARDED_PATH : modifies("pkg/w.py"),
          resolved: c.claimed,
        },
      });
      if (c.resolved !== null)
        await p.validationRun.create({
          data: {
            taskId: candidateTask!.id,
            revisionId,
            kind: "CANDIDATE",
            status: "SUCCEEDED",
            candidatePatchId: candidate.id,
            resolved: c.resolved,
            finishedAt: new Date(),
          },
        });
      return createReview(task.id, candidate.id, c.approve ? "APPROVE" : "REQUEST_CHANGES");
    }
    case "revise": {
      const candidates = await p.candidatePatch.findMany({
        orderBy: { id: "asc" },
        where: { metadata: { equals: {} } },
      });
      const before = await pick(candidates, c.pick);
      if (!before) return null;
      const revised = await p.candidatePatch.create({
        data: {
          taskId: before.taskId,
          generator: `${before.generator}@${++made}`,
          patch: "diff --git a/w.py b/w.py\n",
          metadata: { revision_of: before.generator },
        },
      });
      return p.validationRun.create({
        data: {
          taskId: before.taskId,
          revisionId,
          kind: "CANDIDATE",
          status: "SUCCEEDED",
          candidatePatchId: revised.id,
          resolved: c.resolved,
          finishedAt: new Date(),
        },
      });
    }
    case "rerun": {
      const run = await pick(await runs(), c.pick);
      return (
        run &&
        p.validationRun.update({
          where: { id: run.id },
          data: { failureClass: c.failureClass, log: c.log, finishedAt: new Date(Date.now() + ++made) },
        })
      );
    }
    case "relabel":
      return p.trajectory.updateMany({ data: { model: c.model } });
    case "move": {
      const [owner, name] = c.repo.split("/");
      const repository = await p.repository.upsert({
        where: { owner_name: { owner, name } },
        create: { owner, name },
        update: {},
      });
      return p.environment.update({ where: { id: environmentId }, data: { repositoryId: repository.id } });
    }
    case "delete": {
      const task = await pick(await tasks(), c.pick);
      return task && p.task.delete({ where: { id: task.id } });
    }
    case "unreview": {
      const review = await pick(await reviews(), c.pick);
      return review && p.trajectory.delete({ where: { id: review.id } });
    }
    case "rename": {
      // generated tests name the task they were made for by instance id: renaming it (to or from that name) moves them
      const task = await pick(await tasks(), c.pick);
      const taken = await p.task.findUnique({ where: { instanceId: "cache-1" } });
      const name = c.toOriginal && !taken ? "cache-1" : `cache-renamed-${++made}`;
      return task && p.task.update({ where: { id: task.id }, data: { instanceId: name } });
    }
    case "edit": {
      const task = await pick(await tasks(), c.pick);
      const data = { version: { increment: 1 }, testPatch: testPatch(c.guarded) };
      return task && p.task.update({ where: { id: task.id }, data });
    }
    case "reassign": {
      const [run, candidate] = [await pick(await runs(), c.pick), await pick(await candidates(), c.to)];
      return (
        run && candidate && p.validationRun.update({ where: { id: run.id }, data: { candidatePatchId: candidate.id } })
      );
    }
    case "recipe": {
      const evalScript = c.guarded ? "#!/bin/bash\npytest pkg/helpers.py\n" : "#!/bin/bash\npytest\n";
      return p.environmentRevision.update({ where: { id: revisionId }, data: { evalScript } });
    }
    case "concurrent":
      return writeAcrossARead(c.pick, c.model);
    case "read":
      return Promise.all([loadReviews(p), loadGeneratedTests(p), loadSteps(p), loadRevisionPairs(p)]);
    case "fold":
      // keeping nothing: every kept fact is then older than the horizon and must be read in full
      return foldAnalyticsChanges(p, 0);
  }
}

const readAll = (p: typeof db.prisma) =>
  Promise.all([loadReviews(p), loadGeneratedTests(p), loadSteps(p), loadRevisionPairs(p)]);

/**
 * Another process's transaction writes, this process reads (and keeps facts that cannot see the
 * write), then the transaction commits. Its rows' updated_at is older than the read; the next
 * read must still find them.
 */
async function writeAcrossARead(n: number, model: string) {
  const review = await pick(await reviews(), n);
  const task = await pick(await tasks(), n);
  const other = createPrismaClient(db.url, 1);
  try {
    await other.$transaction(async (tx) => {
      if (review) await tx.trajectory.update({ where: { id: review.id }, data: { model } });
      if (task) await tx.task.update({ where: { id: task.id }, data: { fixPatch: `+def f${n}():\n` } });
      await readAll(db.prisma);
    });
  } finally {
    await other.$disconnect();
  }
}

describe("analytics facts kept between reads", () => {
  it("equal the facts read from the tables after any sequence of writes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 12 }), async (changes) => {
        for (const c of changes) {
          await apply(c);
          await expectCachedToEqualRead();
        }
      }),
      { numRuns: 25 },
    );
  });

  it("are reused while nothing is written, and read again after a write another process makes", async () => {
    const first = await loadReviews(db.prisma);
    expect(await loadReviews(db.prisma)).toBe(first);
    // a second client stands in for another server process writing to the same database
    const other = createPrismaClient(db.url, 1);
    try {
      await other.trajectory.updateMany({ data: { model: "rev-from-elsewhere" } });
    } finally {
      await other.$disconnect();
    }
    const after = await loadReviews(db.prisma);
    expect(after).not.toBe(first);
    expect(after.every((review) => review.reviewer === "rev-from-elsewhere")).toBe(true);
  });

  it("fold in a small write rather than reading everything again, and read in full after a truncation", async () => {
    const p = db.prisma;
    // a task of its own: the property above may have deleted every task, and a review then writes nothing
    await createTask(p, environmentId, { instanceId: `cache-fold-${++made}` });
    await readAll(p);
    const task = (await tasks())[0];
    await apply({
      op: "review",
      pick: 0,
      candidateOf: null,
      approve: true,
      resolved: true,
      claimed: null,
      touchesTests: false,
    });
    await expectCachedToEqualRead();
    expect(lastFactRead(p, "reviews")).toBe("folded");
    await p.task.update({ where: { id: task.id }, data: { curationStatus: "APPROVED" } });
    await readAll(p);
    expect(lastFactRead(p, "steps")).toBe("folded");
    await readAll(p);
    expect(lastFactRead(p, "steps")).toBe("kept");
    await p.$executeRawUnsafe(`TRUNCATE trajectories CASCADE`);
    await expectCachedToEqualRead();
    expect(lastFactRead(p, "reviews")).toBe("full");
    expect(await loadReviews(p)).toEqual([]);
  });

  it("still fold a small write after the record was emptied in the background (a fold keeps recent transactions)", async () => {
    const p = db.prisma;
    await createTask(p, environmentId, { instanceId: `cache-background-${++made}` });
    await readAll(p);
    await apply({
      op: "review",
      pick: 1,
      candidateOf: null,
      approve: false,
      resolved: true,
      claimed: null,
      touchesTests: false,
    });
    // what a read starts once the record's oldest row is old: on a shared cluster that can be any read
    await foldAnalyticsChanges(p);
    await expectCachedToEqualRead();
    expect(lastFactRead(p, "reviews")).toBe("folded");
  });

  it("follow a write to another task that decides a review's ground truth (its candidate's task)", async () => {
    const p = db.prisma;
    const [reviewed, other] = await Promise.all([
      createTask(p, environmentId, { instanceId: `cache-reviewed-${++made}` }),
      createTask(p, environmentId, { instanceId: `cache-other-${++made}` }),
    ]);
    const candidate = await p.candidatePatch.create({
      data: { taskId: other.id, generator: `gen-${++made}`, patch: TOUCHES_GUARDED_PATH, resolved: true },
    });
    await createReview(reviewed.id, candidate.id, "APPROVE");
    const truth = async () => (await loadReviews(p)).find((r) => r.taskId === reviewed.id)?.resolved;
    await apply({ op: "recipe", guarded: false });
    await p.task.update({ where: { id: other.id }, data: { testPatch: testPatch(false) } });
    expect(await truth()).toBe(true);
    // the candidate now touches a file the test patch names: its claimed result is no longer believed
    await p.task.update({ where: { id: other.id }, data: { testPatch: testPatch(true) } });
    expect(await truth()).toBe(null);
    expect(lastFactRead(p, "reviews")).toBe("folded");
    await expectCachedToEqualRead();
  });

  it('keep facts in the order Postgres sorts their ids in (COLLATE "C"), whatever the characters', async () => {
    const id = fc.string({ unit: "binary", maxLength: 6 }).filter((s) => !s.includes("\u0000"));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(id, { minLength: 2, maxLength: 20 }), async (ids) => {
        const sorted = await db.prisma.$queryRawUnsafe<{ id: string }[]>(
          `SELECT id FROM unnest($1::text[]) id ORDER BY id COLLATE "C"`,
          ids,
        );
        expect([...ids].sort(byCodePoints)).toEqual(sorted.map((r) => r.id));
      }),
      { numRuns: 30 },
    );
  });
});
