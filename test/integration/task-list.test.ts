import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import { listTasks, listTasksSql, sparseEnough } from "../../lib/tasks/list-tasks";
import { taskFacets } from "../../lib/tasks/task-facets";
import { raw } from "../../lib/db/sql";
import { filtersFromSearchParams, TaskListQuerySchema, type TaskFiltersInput } from "../../lib/tasks/task-filters";

let db: TestDatabase;
let curatorId: string;
const day = (d: number) => new Date(Date.UTC(2026, 0, d, 12));

beforeAll(async () => {
  db = await createTestDatabase();
  const curator = await createUser(db.prisma, "CURATOR", "Ada");
  curatorId = curator.id;
  const widgets = await createEnvironment(db.prisma, "acme/widgets");
  const gadgets = await createEnvironment(db.prisma, "acme/gadgets");
  const t = (instanceId: string, env: string, o: Parameters<typeof createTask>[2]) =>
    createTask(db.prisma, env, { instanceId, ...o });
  await t("w-1", widgets.id, {
    createdAt: day(1),
    problemStatement: "Division by zero in mean()",
    source: "SWE_BENCH",
    difficulty: "EASY",
    automatedVerdict: "VALID",
  });
  await t("w-2", widgets.id, {
    createdAt: day(2),
    problemStatement: "Resize leaks memory",
    source: "SWE_BENCH",
    difficulty: "HARD",
    automatedVerdict: "INVALID",
    failureClass: "POSITIVE_CONTROL_FAILED",
    labels: ["hot"],
  });
  await t("w-3", widgets.id, {
    createdAt: day(3),
    problemStatement: "Unicode names break the parser: ZeroDivisionError",
    source: "SWE_GYM",
    kind: "TDD_STEP",
    automatedVerdict: "FLAKY",
    curationStatus: "APPROVED",
    assigneeId: curator.id,
  });
  await t("g-1", gadgets.id, {
    createdAt: day(4),
    problemStatement: "Gadget 100% CPU on_idle",
    source: "OPENSWE",
    difficulty: "MEDIUM",
    automatedVerdict: "INVALID",
    failureClass: "BUILD_ERROR",
    labels: ["hot", "infra"],
  });
  await t("g-2", gadgets.id, {
    createdAt: day(5),
    problemStatement: "Timeout while fetching",
    source: "OPENSWE",
    automatedVerdict: "PENDING",
    curationStatus: "REJECTED",
  });
  const w3 = await db.prisma.task.findUniqueOrThrow({ where: { instanceId: "w-3" } });
  const g2 = await db.prisma.task.findUniqueOrThrow({ where: { instanceId: "g-2" } });
  await db.prisma.curationDecision.create({ data: { taskId: w3.id, curatorId: curator.id, verdict: "APPROVE" } });
  await db.prisma.curationDecision.create({
    data: { taskId: g2.id, curatorId: curator.id, verdict: "REJECT", reasons: ["TRIVIAL", "TESTS_TOO_WEAK"] },
  });
  const w1 = await db.prisma.task.findUniqueOrThrow({ where: { instanceId: "w-1" } });
  await db.prisma.trajectory.create({
    data: { externalId: "rev-1", taskId: w1.id, role: "REVIEWER", format: "OTHER", decision: "REQUEST_CHANGES" },
  });
  await db.prisma.trajectory.create({
    data: { externalId: "rev-2", taskId: w3.id, role: "REVIEWER", format: "OTHER", decision: "APPROVE" },
  });
  await db.prisma.trajectory.create({
    data: { externalId: "solver-1", taskId: g2.id, role: "SOLVER", format: "SWE_AGENT" },
  });
});
afterAll(async () => db.drop());

async function ids(filters: TaskFiltersInput) {
  const page = await listTasks(db.prisma, { ...filters, sort: filters.sort ?? "instance_asc" }, { actorId: curatorId });
  return page.items.map((i) => i.instanceId);
}

describe("task list filters", () => {
  it("each filter returns exactly the matching tasks", async () => {
    expect(await ids({})).toEqual(["g-1", "g-2", "w-1", "w-2", "w-3"]);
    expect(await ids({ status: "APPROVED,REJECTED" })).toEqual(["g-2", "w-3"]);
    expect(await ids({ verdict: "INVALID" })).toEqual(["g-1", "w-2"]);
    expect(await ids({ failureClass: "NONE" })).toEqual(["g-2", "w-1", "w-3"]);
    expect(await ids({ failureClass: ["BUILD_ERROR", "POSITIVE_CONTROL_FAILED"] })).toEqual(["g-1", "w-2"]);
    expect(await ids({ source: "OPENSWE" })).toEqual(["g-1", "g-2"]);
    expect(await ids({ repository: "acme/widgets" })).toEqual(["w-1", "w-2", "w-3"]);
    expect(await ids({ kind: "TDD_STEP" })).toEqual(["w-3"]);
    expect(await ids({ difficulty: "EASY,NONE" })).toEqual(["g-2", "w-1", "w-3"]);
    expect(await ids({ reviewerDecision: "REQUEST_CHANGES" })).toEqual(["w-1"]);
    expect(await ids({ reviewerDecision: "NONE" })).toEqual(["g-1", "g-2", "w-2"]);
    expect(await ids({ decided: "yes" })).toEqual(["g-2", "w-3"]);
    expect(await ids({ decided: "no" })).toEqual(["g-1", "w-1", "w-2"]);
    expect(await ids({ reason: "TESTS_TOO_WEAK" })).toEqual(["g-2"]);
    // a reason implies a decision: with decided=yes the reason alone decides, with decided=no nothing passes
    expect(await ids({ decided: "yes", reason: "TESTS_TOO_WEAK" })).toEqual(["g-2"]);
    expect(await ids({ decided: "no", reason: "TESTS_TOO_WEAK" })).toEqual([]);
    expect(await ids({ label: "hot" })).toEqual(["g-1", "w-2"]);
    expect(await ids({ assignee: "me" })).toEqual(["w-3"]);
    expect(await ids({ assignee: "none" })).toEqual(["g-1", "g-2", "w-1", "w-2"]);
    expect(await ids({ createdFrom: "2026-01-02", createdTo: "2026-01-04" })).toEqual(["g-1", "w-2", "w-3"]);
  });

  it("combines filters with AND", async () => {
    expect(await ids({ source: "SWE_BENCH", verdict: "INVALID", label: "hot" })).toEqual(["w-2"]);
    expect(await ids({ repository: "acme/gadgets", status: "PENDING" })).toEqual(["g-1"]);
  });

  it("searches instance ids by substring and problem statements by word prefix, every term, case-insensitively", async () => {
    expect(await ids({ q: "zerodivision" })).toEqual(["w-3"]);
    // a word prefix: "division" is not a prefix of "ZeroDivisionError"
    expect(await ids({ q: "division" })).toEqual(["w-1"]);
    expect(await ids({ q: "DIVIS mean" })).toEqual(["w-1"]);
    expect(await ids({ q: '"by zero"' })).toEqual(["w-1"]);
    expect(await ids({ q: '"zero by"' })).toEqual([]);
    expect(await ids({ q: "g-" })).toEqual(["g-1", "g-2"]);
    expect(await ids({ q: "100%" })).toEqual(["g-1"]);
    // _ separates the words of an identifier, as Postgres's parser splits the statement
    expect(await ids({ q: "on_idle" })).toEqual(["g-1"]);
    // % and _ are literal in the instance id match, never wildcards
    expect(await ids({ q: "w_1" })).toEqual([]);
    expect(await ids({ q: "w%1" })).toEqual([]);
    // quotes and backslashes cannot break out of the query
    expect(await ids({ q: "it's \\' \"" })).toEqual([]);
  });

  it("lists the same page whether it walks the sort's index or finds the search's matches first", async () => {
    for (const input of [
      { q: "zerodivision" },
      { q: "g-", sort: "created_desc" },
      { q: "hot", label: "hot" },
      { q: "w", sort: "instance_desc", status: "PENDING" },
      { q: "division mean", repository: "acme/widgets", sort: "updated_desc" },
      { q: "e", sort: "created_asc", limit: 2 },
    ]) {
      const query = TaskListQuerySchema.parse(input);
      const page = async (matchesFirst: boolean) => {
        const { text, values } = listTasksSql(query, { actorId: curatorId }, { ranked: false, matchesFirst }).toQuery();
        return (await db.prisma.$queryRawUnsafe<{ instanceId: string }[]>(text, ...values)).map((r) => r.instanceId);
      };
      const walked = await page(false);
      expect(await page(true), JSON.stringify(input)).toEqual(walked);
    }
    // finding first pays while matches are sparse: at a million tasks, a word in 0.3 % of them is, one in 40 % is not
    expect(sparseEnough(3_400, 1_000_000, 50)).toBe(true);
    expect(sparseEnough(416_000, 1_000_000, 50)).toBe(false);
  });

  it("parses the same filters from a URL", async () => {
    const filters = filtersFromSearchParams(new URLSearchParams("source=OPENSWE&sort=created_desc"));
    const page = await listTasks(db.prisma, filters);
    expect(page.items.map((i) => i.instanceId)).toEqual(["g-2", "g-1"]);
    expect(page.items[0]).toMatchObject({ repository: "acme/gadgets", curationStatus: "REJECTED", decisionCount: 1 });
  });
});

describe("cursor pagination", () => {
  it("walks every task once in each sort order", async () => {
    for (const sort of ["created_desc", "created_asc", "updated_desc", "instance_asc", "instance_desc"] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listTasks(db.prisma, { sort, limit: 2, cursor });
        seen.push(...page.items.map((i) => i.instanceId));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toHaveLength(5);
      expect(new Set(seen).size).toBe(5);
      if (sort === "created_desc") expect(seen).toEqual(["g-2", "g-1", "w-3", "w-2", "w-1"]);
      if (sort === "instance_desc") expect(seen).toEqual(["w-3", "w-2", "w-1", "g-2", "g-1"]);
    }
  });

  it("refuses a forged cursor with a clear message", async () => {
    await expect(listTasks(db.prisma, { cursor: "not-a-cursor" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("facets", () => {
  it("counts each value under the other filters, keeping the chosen facet's other values visible", async () => {
    const result = await taskFacets(db.prisma, { source: "OPENSWE,SWE_BENCH", verdict: "INVALID" });
    expect(result.total).toBe(2);
    // source ignores its own filter: every source among INVALID tasks
    expect(result.facets.source).toEqual({ OPENSWE: 1, SWE_BENCH: 1 });
    // verdict ignores its own filter: every verdict among OPENSWE + SWE_BENCH tasks
    expect(result.facets.verdict).toEqual({ INVALID: 2, VALID: 1, PENDING: 1 });
    expect(result.facets.failureClass).toEqual({ BUILD_ERROR: 1, POSITIVE_CONTROL_FAILED: 1 });
    expect(result.repositories).toEqual([
      { repository: "acme/gadgets", count: 1 },
      { repository: "acme/widgets", count: 1 },
    ]);
  });

  it("under a search and several filters, each value's count is what the list shows when that value is chosen instead", async () => {
    const filters = { q: "zero", verdict: "VALID,FLAKY", repository: "acme/widgets", label: "" };
    const result = await taskFacets(db.prisma, filters);
    expect(result.total).toBe((await ids(filters)).length);
    expect(result.total).toBe(2);
    for (const [facet, counts] of Object.entries(result.facets)) {
      for (const [value, count] of Object.entries(counts))
        expect([facet, value, count]).toEqual([facet, value, (await ids({ ...filters, [facet]: value })).length]);
    }
    // verdict leaves out its own filter: the INVALID search hit is counted too (and only it)
    expect(result.facets.verdict).toEqual({ VALID: 1, FLAKY: 1 });
    expect(result.repositories).toEqual([{ repository: "acme/widgets", count: 2 }]);
    // nothing matches every filter, yet each status still shows what choosing it would list
    const rejected = await taskFacets(db.prisma, { ...filters, status: "REJECTED" });
    expect(rejected.total).toBe(0);
    expect(rejected.facets.status).toEqual({ PENDING: 1, APPROVED: 1 });
  });

  it("counts a search's matches alone when no filter but the facets' own joins it, as it counts them among every task", async () => {
    const blindOnW1 = { hiddenTasks: raw("SELECT id FROM tasks WHERE instance_id = 'w-1'") };
    for (const filters of [{ q: "zero" }, { q: "zero", verdict: "VALID,FLAKY" }, { q: "g-", status: "REJECTED" }]) {
      const alone = await taskFacets(db.prisma, filters);
      // a date filter every task passes: the matches are found again among every task
      const among = await taskFacets(db.prisma, { ...filters, createdFrom: "2000-01-01" });
      expect(alone, JSON.stringify(filters)).toEqual(among);
      expect(alone.total).toBe((await ids(filters)).length);
      const aloneBlind = await taskFacets(db.prisma, filters, blindOnW1);
      expect(aloneBlind).toEqual(await taskFacets(db.prisma, { ...filters, createdFrom: "2000-01-01" }, blindOnW1));
    }
    const zero = await taskFacets(db.prisma, { q: "zero" });
    expect(zero.total).toBe(2);
    expect((await taskFacets(db.prisma, { q: "zero" }, blindOnW1)).total).toBe(1);
  });

  it("gives the total and NONE for empty values without filters", async () => {
    const result = await taskFacets(db.prisma, {});
    expect(result.total).toBe(5);
    expect(result.facets.difficulty).toEqual({ EASY: 1, HARD: 1, MEDIUM: 1, NONE: 2 });
  });
});
