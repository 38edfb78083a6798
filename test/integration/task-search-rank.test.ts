import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask } from "../fixtures/factories/curation";
import { listTasks, planListRead, RANK_LIMIT, SURELY_UNRANKABLE, type RunSql } from "@/lib/tasks/list-tasks";
import { TaskListQuerySchema, type TaskListQueryInput } from "@/lib/tasks/task-filters";
import { queryRows } from "@/lib/db/sql";

// A search in "best match" order (the default) lists an exact instance id first, then the
// other matches by full-text rank: the statement that is most about the words comes first,
// whatever its age. Page after page the order holds, and each match is listed once.

let db: TestDatabase;
const day = (d: number) => new Date(Date.UTC(2026, 0, d, 12));

beforeAll(async () => {
  db = await createTestDatabase();
  const env = await createEnvironment(db.prisma, "acme/serial");
  const filler = "The widget renders a table of rows with a header and a footer and some padding around it.";
  const tasks: [string, number, string][] = [
    // newest first would list these in the opposite order of their relevance
    [
      "acme__serial-1",
      1,
      "The serializer drops the timezone. Every serializer call loses it, the serializer cache too, and the serializer tests miss it.",
    ],
    ["acme__serial-2", 2, `The serializer drops microseconds. ${filler} The serializer should keep them.`],
    ["acme__serial-3", 3, `${filler} ${filler} Somewhere deep in this the serializer is mentioned once.`],
    ["acme__serial-4", 4, "Resizing a window flickers (nothing about the search word)."],
    // an instance id that is the search word itself, whose statement never says it
    ["serializer", 5, "Dates are off by one day after a round trip."],
  ];
  for (const [instanceId, d, problemStatement] of tasks)
    await createTask(db.prisma, env.id, { instanceId, problemStatement, createdAt: day(d) });
});
afterAll(async () => db.drop());

async function walk(query: TaskListQueryInput, limit: number) {
  const seen: string[] = [];
  let cursor: string | undefined;
  let ranked: boolean[] = [];
  do {
    const page = await listTasks(db.prisma, { ...query, limit, cursor });
    seen.push(...page.items.map((t) => t.instanceId));
    ranked = [...ranked, page.ranked];
    cursor = page.nextCursor ?? undefined;
  } while (cursor && seen.length < 50);
  return { seen, ranked };
}

describe("search order", () => {
  it("lists the exact instance id first, then the matches by full-text rank, not by age", async () => {
    const page = await listTasks(db.prisma, { q: "serializer" });
    expect(page.ranked).toBe(true);
    expect(page.items.map((t) => t.instanceId)).toEqual([
      "serializer",
      "acme__serial-1",
      "acme__serial-2",
      "acme__serial-3",
    ]);
  });

  it("keeps the rank order across pages, each match once", async () => {
    // "serial" is no instance id: the statements that say it by rank, then the ids that merely contain it
    const { seen, ranked } = await walk({ q: "serial" }, 1);
    expect(seen.slice(0, 3)).toEqual(["acme__serial-1", "acme__serial-2", "acme__serial-3"]);
    expect(seen.slice(3).sort()).toEqual(["acme__serial-4", "serializer"]);
    expect(new Set(ranked)).toEqual(new Set([true]));
  });

  it("ranks by every word searched", async () => {
    const page = await listTasks(db.prisma, { q: "serializer microseconds" });
    expect(page.items.map((t) => t.instanceId)).toEqual(["acme__serial-2"]);
  });

  it("keeps a sort the user chose over the rank", async () => {
    const page = await listTasks(db.prisma, { q: "serializer", sort: "created_asc" });
    expect(page.ranked).toBe(false);
    expect(page.items.map((t) => t.instanceId)).toEqual([
      "serializer",
      "acme__serial-1",
      "acme__serial-2",
      "acme__serial-3",
    ]);
    const newest = await listTasks(db.prisma, { q: "serializer", sort: "created_desc" });
    expect(newest.items.map((t) => t.instanceId)).toEqual([
      "serializer",
      "acme__serial-3",
      "acme__serial-2",
      "acme__serial-1",
    ]);
  });

  it("lists newest first, and says it did not rank, when more tasks match than can be ranked cheaply", async () => {
    const env = await createEnvironment(db.prisma, "acme/many");
    await db.prisma.task.createMany({
      data: Array.from({ length: RANK_LIMIT + 1 }, (_, i) => ({
        instanceId: `acme__many-${i}`,
        environmentId: env.id,
        problemStatement: `Overflow ${"overflow ".repeat(i % 7)}in the parser, case ${i}`,
        fixPatch: "",
        testPatch: "",
        createdAt: new Date(day(10).getTime() + i * 60_000),
      })),
    });
    const page = await listTasks(db.prisma, { q: "overflow", limit: 3 });
    expect(page.ranked).toBe(false);
    expect(page.items.map((t) => t.instanceId)).toEqual([
      `acme__many-${RANK_LIMIT}`,
      `acme__many-${RANK_LIMIT - 1}`,
      `acme__many-${RANK_LIMIT - 2}`,
    ]);
  });

  it("does not count a search the statistics say matches far too many to rank, yet ranks the few its other filters keep", async () => {
    const env = await createEnvironment(db.prisma, "acme/crowd");
    await db.prisma.task.createMany({
      data: Array.from({ length: SURELY_UNRANKABLE + 1_000 }, (_, i) => ({
        instanceId: `acme__crowd-${i}`,
        environmentId: env.id,
        // a vocabulary of 150 words: Postgres estimates a prefix search from the statistics only when they hold 100 words or more
        problemStatement: `The tokenizer splits ${[i, i * 7, i * 13].map((k) => `word${k % 150}`).join(" ")}, case ${i}`,
        fixPatch: "",
        testPatch: "",
        createdAt: new Date(day(11).getTime() + i * 1_000),
      })),
    });
    // three hard tasks, the least about the word the newest
    for (const [i, statement] of [
      "tokenizer tokenizer tokenizer fails",
      "the tokenizer fails twice, tokenizer",
      "a tokenizer",
    ].entries())
      await createTask(db.prisma, env.id, {
        instanceId: `acme__hard-${i}`,
        problemStatement: statement,
        difficulty: "HARD",
        createdAt: day(20 + i),
      });
    await db.prisma.$executeRawUnsafe("ANALYZE tasks");
    const sent: string[] = [];
    const run: RunSql = (statement) => {
      sent.push(statement.toQuery().text);
      return queryRows(db.prisma, statement);
    };
    const plan = (input: TaskListQueryInput) => planListRead(run, TaskListQuerySchema.parse(input), {});

    expect(await plan({ q: "tokenizer" })).toEqual({ ranked: false, matchesFirst: false });
    expect(sent.filter((text) => text.includes("count(*)"))).toEqual([]);
    const crowd = await listTasks(db.prisma, { q: "tokenizer", limit: 2 });
    expect(crowd.ranked).toBe(false);
    expect(crowd.items.map((t) => t.instanceId)).toEqual(["acme__hard-2", "acme__hard-1"]);

    const hard = await listTasks(db.prisma, { q: "tokenizer", difficulty: ["HARD"] });
    expect(hard.ranked).toBe(true);
    expect(hard.items.map((t) => t.instanceId)).toEqual(["acme__hard-0", "acme__hard-1", "acme__hard-2"]);
  });
});
