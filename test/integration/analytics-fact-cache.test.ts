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
import { foldAnalyticsChanges } from "../../lib/analytics/fact-cache";

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
      approve: fc.boolean(),
      resolved: fc.option(fc.boolean()),
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
  { weight: 1, arbitrary: fc.constant({ op: "read" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "fold" as const }) },
);
type Change = typeof change extends fc.Arbitrary<infer T> ? T : never;

async function pick<T extends { id: string }>(rows: T[], n: number): Promise<T | null> {
  return rows.length ? rows[n % rows.length] : null;
}
const tasks = () => db.prisma.task.findMany({ select: { id: true }, orderBy: { id: "asc" } });
const runs = () => db.prisma.validationRun.findMany({ select: { id: true }, orderBy: { id: "asc" } });

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
      const task = await pick(await tasks(), c.pick);
      if (!task) return null;
      const candidate = await p.candidatePatch.create({
        data: { taskId: task.id, generator: `gen-${++made}`, patch: "diff --git a/w.py b/w.py\n" },
      });
      if (c.resolved !== null)
        await p.validationRun.create({
          data: {
            taskId: task.id,
            revisionId,
            kind: "CANDIDATE",
            status: "SUCCEEDED",
            candidatePatchId: candidate.id,
            resolved: c.resolved,
            finishedAt: new Date(),
          },
        });
      const decision = c.approve ? "APPROVE" : "REQUEST_CHANGES";
      return p.trajectory.create({
        data: {
          externalId: `cache-review-${made}`,
          taskId: task.id,
          candidatePatchId: candidate.id,
          role: "REVIEWER",
          format: "OTHER",
          model: "rev-a",
          decision,
          stepCount: 1,
          metadata: { reviewId: `r-${made}` },
        },
      });
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
    case "read":
      return Promise.all([loadReviews(p), loadGeneratedTests(p), loadSteps(p), loadRevisionPairs(p)]);
    case "fold":
      return foldAnalyticsChanges(p);
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
      { numRuns: 15 },
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
});
