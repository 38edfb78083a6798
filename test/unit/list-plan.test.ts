import { describe, expect, it } from "vitest";
import { planListRead, type RunSql } from "@/lib/tasks/list-tasks";
import { TaskListQuerySchema } from "@/lib/tasks/task-filters";

// planListRead decides from the planner's estimates whether a "best match" search is worth
// counting before it is ranked. Postgres estimates every word its statistics do not know
// alike, and at scale that estimate alone passes the count threshold, so these cases script
// the planner of tables too large for a test database: the statements are the boundary faked.

/** A planner that estimates `known` tasks for the searched word and `unknown` for a word the statistics lack. */
function scriptedPlanner({
  tasks,
  known,
  unknown,
  matches,
}: Record<"tasks" | "known" | "unknown" | "matches", number>) {
  const sent: string[] = [];
  const run: RunSql = async <T>(statement: Parameters<RunSql>[0]) => {
    const { text, values } = statement.toQuery();
    sent.push(text);
    const rows = (row: object) => [row] as T[];
    if (text.startsWith("EXPLAIN")) {
      const unknownWord = values.some((value) => String(value).includes("qzxjvqzxjv"));
      return rows({ "QUERY PLAN": [{ Plan: { "Plan Rows": unknownWord ? unknown : known } }] });
    }
    if (text.includes("reltuples")) return rows({ tasks });
    if (text.includes("count(*)")) return rows({ n: Math.min(matches, 501) });
    throw new Error(`a statement planListRead should not send: ${text}`);
  };
  return { run, counted: () => sent.some((text) => text.includes("count(*)")) };
}

const plan = (planner: ReturnType<typeof scriptedPlanner>, q: string) =>
  planListRead(planner.run, TaskListQuerySchema.parse({ q }), {});

describe("whether a best-match search is counted before it is ranked", () => {
  it("ranks a rare word at two million tasks, whose estimate is the statistics' guess for any unknown word", async () => {
    const planner = scriptedPlanner({ tasks: 2_000_000, known: 9_980, unknown: 9_980, matches: 12 });
    expect(await plan(planner, "ZeroDivisionError")).toEqual({ ranked: true, matchesFirst: false });
    expect(planner.counted()).toBe(true);
  });

  it("ranks any word when the statistics hold too few words to estimate one (2 % of the tasks each)", async () => {
    const planner = scriptedPlanner({ tasks: 400_000, known: 8_000, unknown: 8_000, matches: 40 });
    expect(await plan(planner, "tokenizer")).toEqual({ ranked: true, matchesFirst: false });
  });

  it("does not count a word the statistics know 40 % of the tasks contain", async () => {
    const planner = scriptedPlanner({ tasks: 2_000_000, known: 800_000, unknown: 9_980, matches: 800_000 });
    expect(await plan(planner, "serializer")).toEqual({ ranked: false, matchesFirst: false });
    expect(planner.counted()).toBe(false);
  });

  it("counts, and then lists newest first, a word estimated at a few thousand that has more than can be ranked", async () => {
    const planner = scriptedPlanner({ tasks: 1_000_000, known: 3_400, unknown: 4_990, matches: 3_400 });
    expect(await plan(planner, "overflow")).toEqual({ ranked: false, matchesFirst: true });
    expect(planner.counted()).toBe(true);
  });
});
