import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import {
  AutomatedVerdict,
  CurationStatus,
  DecisionReason,
  Difficulty,
  FailureClass,
  ReviewerDecision,
  TaskKind,
  TaskSource,
} from "../../lib/db/enums";
import type { PrismaClient } from "../../lib/db/client";
import { facetCountsSql, repositoryCountsSql, taskFacets } from "../../lib/tasks/task-facets";
import { foldFacetTallies } from "../../lib/tasks/facet-tallies";
import { TaskFiltersSchema, type TaskFiltersInput } from "../../lib/tasks/task-filters";

// The unfiltered facet counts and top repositories, and the facets under a repository, decided,
// reason or reviewer filter, come from pre-counted tallies that triggers keep; every other
// filter counts the tasks. Both must give the same numbers after any sequence of changes, and
// the decided, reason and reviewer columns kept on tasks must say what their decisions and
// trajectories say.

let db: TestDatabase;
/** Three environments in two repositories, and a repository with no environment to move one to. */
let environmentIds: string[];
let repositoryIds: string[];
let environmentId: string;
let curatorId: string;
let made = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  const environments = [
    await createEnvironment(db.prisma, "acme/tallies"),
    await createEnvironment(db.prisma, "acme/tallies"),
    await createEnvironment(db.prisma, "zeta/other"),
  ];
  environmentIds = environments.map((e) => e.id);
  environmentId = environmentIds[0];
  const spare = await db.prisma.repository.create({ data: { owner: "spare", name: "empty" } });
  repositoryIds = [environments[0].repository.id, environments[2].repository.id, spare.id];
  curatorId = (await createUser(db.prisma)).id;
});
afterAll(async () => db.drop());

/** A filter that every task passes but that is not a facet's own, so the tasks are counted one by one. */
const COUNT_EVERY_TASK = { createdFrom: "2000-01-01" };

/** Filters a tally answers besides the facets' own, alone and with a facet's or the repository's. */
const TALLIED_FILTERS: TaskFiltersInput[] = [
  { decided: "yes" },
  { decided: "no", status: "PENDING,REJECTED" },
  { reason: "FLAKY,TRIVIAL" },
  { decided: "yes", reason: "OTHER", verdict: "VALID" },
  { reviewerDecision: "NONE" },
  { reviewerDecision: "REQUEST_CHANGES", status: "PENDING" },
  { reviewerDecision: "APPROVE,NONE", repository: "acme/tallies" },
  // facets' own filters alone: the top repositories from the repository tally or the tasks
  { verdict: "VALID,INVALID" },
  { source: "SWE_GYM", difficulty: "NONE,HARD" },
];

/** Tasks whose kept decided, reasons or reviewer decisions differ from what their children say. */
const REVIEW_COLUMNS_WRONG = `
  SELECT t.instance_id FROM tasks t
  WHERE (t.decided, t.decision_reasons, t.reviewer_decisions) IS DISTINCT FROM (
    EXISTS (SELECT 1 FROM curation_decisions d WHERE d.task_id = t.id),
    coalesce((SELECT array_agg(DISTINCT r ORDER BY r) FROM curation_decisions d, unnest(d.reasons) r WHERE d.task_id = t.id), '{}'),
    coalesce((SELECT array_agg(DISTINCT tr.decision ORDER BY tr.decision) FROM trajectories tr
              WHERE tr.task_id = t.id AND tr.role = 'REVIEWER' AND tr.decision IS NOT NULL), '{}'))`;

async function expectTalliesToMatchCounts() {
  expect(await db.prisma.$queryRawUnsafe(REVIEW_COLUMNS_WRONG)).toEqual([]);
  const [tallied, counted, tasks] = await Promise.all([
    taskFacets(db.prisma, {}),
    taskFacets(db.prisma, COUNT_EVERY_TASK),
    db.prisma.task.count(),
  ]);
  expect(tallied.total).toBe(tasks);
  expect(tallied).toEqual(counted);
  for (const repository of ["acme/tallies", "zeta/other", "spare/empty"]) {
    const [talliedIn, countedIn] = await Promise.all([
      taskFacets(db.prisma, { repository }),
      taskFacets(db.prisma, { repository, ...COUNT_EVERY_TASK }),
    ]);
    expect(talliedIn).toEqual(countedIn);
  }
  for (const filters of TALLIED_FILTERS) {
    const [talliedUnder, countedUnder] = await Promise.all([
      taskFacets(db.prisma, filters),
      taskFacets(db.prisma, { ...filters, ...COUNT_EVERY_TASK }),
    ]);
    expect(talliedUnder, JSON.stringify(filters)).toEqual(countedUnder);
  }
}

const facets = fc.record({
  source: fc.constantFrom(...Object.values(TaskSource)),
  kind: fc.constantFrom(...Object.values(TaskKind)),
  difficulty: fc.constantFrom(null, ...Object.values(Difficulty)),
  automatedVerdict: fc.constantFrom(...Object.values(AutomatedVerdict)),
  failureClass: fc.constantFrom(null, ...Object.values(FailureClass)),
  curationStatus: fc.constantFrom(...Object.values(CurationStatus)),
});
type Facets = typeof facets extends fc.Arbitrary<infer T> ? T : never;

const change = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("insert" as const),
      rows: fc.array(fc.record({ facets, environment: fc.nat() }), { minLength: 1, maxLength: 6 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("update" as const),
      pick: fc.nat(),
      set: facets.chain((f) =>
        fc.subarray(Object.keys(f)).map((keys) => Object.fromEntries(keys.map((k) => [k, f[k as keyof Facets]]))),
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("updateMany" as const),
      source: fc.constantFrom(...Object.values(TaskSource)),
      status: fc.constantFrom(...Object.values(CurationStatus)),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("relabel" as const), pick: fc.nat() }) },
  // a task moved to another environment, and an environment moved to another repository
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("moveTask" as const), pick: fc.nat(), environment: fc.nat() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("moveEnvironment" as const), environment: fc.nat(), repository: fc.nat() }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("delete" as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("deleteMany" as const), kind: fc.constantFrom(...Object.values(TaskKind)) }),
  },
  // what curators and reviewer agents conclude, kept on the task from its children
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("decide" as const),
      pick: fc.nat(),
      reasons: fc.subarray(Object.values(DecisionReason), { maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("editReasons" as const),
      pick: fc.nat(),
      reasons: fc.subarray(Object.values(DecisionReason), { maxLength: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("undecide" as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("review" as const),
      pick: fc.nat(),
      role: fc.constantFrom("REVIEWER" as const, "SOLVER" as const),
      decision: fc.constantFrom(null, ...Object.values(ReviewerDecision)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("changeReview" as const),
      pick: fc.nat(),
      decision: fc.constantFrom(null, ...Object.values(ReviewerDecision)),
      moveTo: fc.option(fc.nat(), { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("deleteReview" as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { op: "truncateChildren" as const, table: "curation_decisions" },
      {
        op: "truncateChildren" as const,
        table: "trajectories",
      },
    ),
  },
  { weight: 2, arbitrary: fc.constant({ op: "fold" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "truncate" as const }) },
);
type Change = typeof change extends fc.Arbitrary<infer T> ? T : never;

async function pickTask(pick: number) {
  const ids = await db.prisma.task.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  return ids.length ? ids[pick % ids.length].id : null;
}

async function pickDecision(pick: number) {
  const ids = await db.prisma.curationDecision.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  return ids.length ? ids[pick % ids.length].id : null;
}

async function pickTrajectory(pick: number) {
  const ids = await db.prisma.trajectory.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  return ids.length ? ids[pick % ids.length].id : null;
}

async function apply(c: Change) {
  const p = db.prisma;
  switch (c.op) {
    case "insert":
      return p.task.createMany({
        data: c.rows.map(({ facets, environment }) => ({
          ...facets,
          instanceId: `tally-${++made}`,
          environmentId: environmentIds[environment % environmentIds.length],
          problemStatement: "p",
          fixPatch: "",
          testPatch: "",
        })),
      });
    case "update": {
      const id = await pickTask(c.pick);
      return id && p.task.update({ where: { id }, data: c.set });
    }
    case "updateMany":
      return p.task.updateMany({ where: { source: c.source }, data: { curationStatus: c.status } });
    case "relabel": {
      const id = await pickTask(c.pick);
      return id && p.task.update({ where: { id }, data: { labels: [`l${c.pick}`] } });
    }
    case "moveTask": {
      const id = await pickTask(c.pick);
      return id && p.task.update({ where: { id }, data: { environmentId: environmentIds[c.environment % 3] } });
    }
    case "moveEnvironment":
      return p.environment.update({
        where: { id: environmentIds[c.environment % 3] },
        data: { repositoryId: repositoryIds[c.repository % 3] },
      });
    case "delete": {
      const id = await pickTask(c.pick);
      return id && p.task.delete({ where: { id } });
    }
    case "deleteMany":
      return p.task.deleteMany({ where: { kind: c.kind } });
    case "decide": {
      const taskId = await pickTask(c.pick);
      return (
        taskId && p.curationDecision.create({ data: { taskId, curatorId, verdict: "REJECT", reasons: c.reasons } })
      );
    }
    case "editReasons": {
      const id = await pickDecision(c.pick);
      return id && p.curationDecision.update({ where: { id }, data: { reasons: c.reasons } });
    }
    case "undecide": {
      const id = await pickDecision(c.pick);
      return id && p.curationDecision.delete({ where: { id } });
    }
    case "review": {
      const taskId = await pickTask(c.pick);
      return (
        taskId &&
        p.trajectory.create({
          data: { externalId: `review-${++made}`, taskId, role: c.role, format: "OTHER", decision: c.decision },
        })
      );
    }
    case "changeReview": {
      const id = await pickTrajectory(c.pick);
      const taskId = c.moveTo === undefined ? undefined : await pickTask(c.moveTo);
      return id && p.trajectory.update({ where: { id }, data: { decision: c.decision, ...(taskId && { taskId }) } });
    }
    case "deleteReview": {
      const id = await pickTrajectory(c.pick);
      return id && p.trajectory.delete({ where: { id } });
    }
    case "truncateChildren":
      return p.$executeRawUnsafe(`TRUNCATE ${c.table} CASCADE`);
    case "fold":
      return foldFacetTallies(p);
    case "truncate":
      return p.$executeRawUnsafe("TRUNCATE tasks CASCADE");
  }
}

describe("pre-counted task facets", () => {
  it("reads a tally only when it counts per every filter set", () => {
    const text = (input: object) => facetCountsSql(TaskFiltersSchema.parse(input)).toQuery().text;
    expect(text({})).toMatch(/task_facet_tallies/);
    expect(text({ source: "SWE_BENCH", verdict: "VALID" })).toMatch(/task_facet_tallies/);
    expect(text(COUNT_EVERY_TASK)).not.toMatch(/task_facet_tallies/);
    expect(text({ q: "resize" })).not.toMatch(/task_facet_tallies/);
    expect(text({ repository: "acme/tallies", verdict: "VALID" })).toMatch(/task_repository_tallies/);
    expect(text({ repository: "acme/tallies", q: "resize" })).not.toMatch(/tallies/);
    const repositories = (input: object) => repositoryCountsSql(TaskFiltersSchema.parse(input)).toQuery().text;
    // under a facet filter besides status, the top repositories read whichever is fewer rows: the
    // repository tally's, or the tasks' that pass (the facet tally counts those)
    expect(repositories({ verdict: "VALID", repository: "acme/tallies" })).toMatch(
      /task_facet_tallies[\s\S]*task_repository_tallies/,
    );
    expect(repositories(COUNT_EVERY_TASK)).not.toMatch(/tallies/);
    // the review tallies: facets per decided, reasons and reviewer decisions; repositories per those and status
    expect(text({ decided: "yes", reason: "FLAKY" })).toMatch(/task_review_tallies/);
    expect(text({ reviewerDecision: "REQUEST_CHANGES", status: "PENDING" })).toMatch(/task_review_tallies/);
    expect(repositories({ status: "PENDING" })).toMatch(/task_review_repository_tallies/);
    expect(repositories({ reviewerDecision: "REQUEST_CHANGES", status: "PENDING" })).toMatch(
      /task_review_repository_tallies/,
    );
    // no tally counts per repository, verdict and review at once
    expect(repositories({ decided: "yes", verdict: "VALID" })).not.toMatch(/tallies/);
    expect(text({ decided: "yes", repository: "acme/tallies" })).not.toMatch(/tallies/);
  });

  it("give the same counts as counting the tasks after any change to tasks, decisions or trajectories, folds and truncations", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 12 }), async (changes) => {
        for (const c of changes) await apply(c);
        await expectTalliesToMatchCounts();
      }),
      { numRuns: 25 },
    );
  });

  it("counts under the facets' own filters as the tasks do", async () => {
    await apply({
      op: "insert",
      rows: [
        {
          environment: 0,
          facets: {
            source: "SWE_BENCH",
            kind: "ISSUE_FIX",
            difficulty: "EASY",
            automatedVerdict: "VALID",
            failureClass: null,
            curationStatus: "PENDING",
          },
        },
        {
          environment: 2,
          facets: {
            source: "SWE_GYM",
            kind: "ISSUE_FIX",
            difficulty: null,
            automatedVerdict: "INVALID",
            failureClass: "BUILD_ERROR",
            curationStatus: "REJECTED",
          },
        },
      ],
    });
    for (const filters of [
      { source: "SWE_BENCH" },
      { verdict: "INVALID,VALID" },
      { failureClass: "NONE" },
      { difficulty: "NONE", status: "REJECTED" },
      { repository: "zeta/other", status: "REJECTED,PENDING" },
    ]) {
      const [tallied, counted] = await Promise.all([
        taskFacets(db.prisma, filters),
        taskFacets(db.prisma, { ...filters, ...COUNT_EVERY_TASK }),
      ]);
      expect(tallied).toEqual(counted);
    }
  });

  it("keeps a change that commits while a fold runs, and concurrent folds count each change once", async () => {
    await db.prisma.$transaction(async (tx) => {
      await createTask(tx as unknown as PrismaClient, environmentId, {
        instanceId: `tally-${++made}`,
        source: "SWE_SMITH",
        curationStatus: "NEEDS_CHANGES",
      });
      await tx.task.updateMany({ where: { source: "SWE_BENCH" }, data: { automatedVerdict: "FLAKY" } });
      // the fold runs on another connection and cannot see these uncommitted rows
      await foldFacetTallies(db.prisma);
    });
    await expectTalliesToMatchCounts();
    await apply({
      op: "insert",
      rows: [
        {
          environment: 2,
          facets: {
            source: "OPENSWE",
            kind: "TDD_STEP",
            difficulty: "HARD",
            automatedVerdict: "PENDING",
            failureClass: null,
            curationStatus: "PENDING",
          },
        },
      ],
    });
    await Promise.all([
      foldFacetTallies(db.prisma),
      foldFacetTallies(db.prisma),
      apply({ op: "updateMany", source: "OPENSWE", status: "APPROVED" }),
      foldFacetTallies(db.prisma),
    ]);
    await expectTalliesToMatchCounts();
    const [{ rows }] = await db.prisma.$queryRawUnsafe<{ rows: number }[]>(
      "SELECT count(*)::int AS rows FROM task_facet_tallies",
    );
    await foldFacetTallies(db.prisma);
    const [{ combinations }] = await db.prisma.$queryRawUnsafe<{ combinations: number }[]>(
      "SELECT count(*)::int AS combinations FROM (SELECT DISTINCT curation_status, automated_verdict, failure_class, source, kind, difficulty FROM tasks) c",
    );
    const [{ rows: folded }] = await db.prisma.$queryRawUnsafe<{ rows: number }[]>(
      "SELECT count(*)::int AS rows FROM task_facet_tallies",
    );
    // folding leaves one row per combination the tasks show, and no more than before
    expect(folded).toBe(combinations);
    expect(folded).toBeLessThanOrEqual(rows);
    const [{ perRepository }] = await db.prisma.$queryRawUnsafe<{ perRepository: number }[]>(
      `SELECT count(*)::int AS "perRepository" FROM (SELECT DISTINCT e.repository_id, t.curation_status, t.automated_verdict, t.failure_class, t.source, t.kind, t.difficulty FROM tasks t JOIN environments e ON e.id = t.environment_id) c`,
    );
    const [{ rows: foldedPerRepository }] = await db.prisma.$queryRawUnsafe<{ rows: number }[]>(
      "SELECT count(*)::int AS rows FROM task_repository_tallies",
    );
    expect(foldedPerRepository).toBe(perRepository);
    await expectTalliesToMatchCounts();
  });

  it("keeps every reason when two curators decide on one task at once", async () => {
    const task = await createTask(db.prisma, environmentId, { instanceId: `tally-${++made}` });
    let inserted!: () => void;
    let commit!: () => void;
    const firstInserted = new Promise<void>((resolve) => (inserted = resolve));
    const firstMayCommit = new Promise<void>((resolve) => (commit = resolve));
    const first = db.prisma.$transaction(async (tx) => {
      await tx.curationDecision.create({
        data: { taskId: task.id, curatorId, verdict: "REJECT", reasons: ["FLAKY"] },
      });
      inserted();
      await firstMayCommit;
    });
    await firstInserted;
    // the second decision's trigger waits for the first's lock on the task before it reads
    // (then: a Prisma query runs only once something awaits it)
    const second = db.prisma.curationDecision
      .create({ data: { taskId: task.id, curatorId, verdict: "NEEDS_CHANGES", reasons: ["TRIVIAL"] } })
      .then(() => undefined);
    await expect
      .poll(async () => {
        const [{ waiting }] = await db.prisma.$queryRawUnsafe<{ waiting: number }[]>(
          "SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted",
        );
        return waiting;
      })
      .toBeGreaterThan(0);
    commit();
    await Promise.all([first, second]);
    const [kept] = await db.prisma.$queryRawUnsafe<{ decided: boolean; reasons: string[] }[]>(
      "SELECT decided, decision_reasons::text[] AS reasons FROM tasks WHERE id = $1",
      task.id,
    );
    expect(kept).toEqual({ decided: true, reasons: ["TRIVIAL", "FLAKY"] });
    await expectTalliesToMatchCounts();
  });
});
