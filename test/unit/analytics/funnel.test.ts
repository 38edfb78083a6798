import { describe, expect, it } from "vitest";
import { buildFunnel, FunnelQuerySchema } from "@/lib/analytics/funnel";
import { decodeSlice } from "@/lib/analytics/slice-key";

// Twelve tasks by the first gate they failed (stop) and why; the figures below were counted by hand.
const COUNTS = [
  { grp: null, stop: 1, cause: "NO_ENVIRONMENT", n: 2 },
  { grp: null, stop: 2, cause: "NOT_VALIDATED", n: 2 },
  { grp: null, stop: 2, cause: "BUILD_ERROR", n: 1 },
  { grp: null, stop: 3, cause: "NEGATIVE_CONTROL_PASSED", n: 1 },
  { grp: null, stop: 4, cause: "POSITIVE_CONTROL_FAILED", n: 1 },
  { grp: null, stop: 5, cause: "FLAKY", n: 1 },
  { grp: null, stop: 6, cause: "PENDING", n: 2 },
  { grp: null, stop: 7, cause: null, n: 2 },
];

const sliceOf = (href: string) => decodeSlice(new URL(href, "http://x").searchParams.get("slice")!);

describe("validation funnel", () => {
  const funnel = buildFunnel(FunnelQuerySchema.parse({}), COUNTS);

  it("counts the tasks reaching each gate, and each stage's share of imported and of the previous stage", () => {
    expect(funnel.stages.rows.map((r) => r.tasks)).toEqual([12, 10, 7, 6, 5, 4, 2]);
    expect(funnel.stages.rows.map((r) => r.ofImported)).toEqual(
      [1, 10 / 12, 7 / 12, 0.5, 5 / 12, 4 / 12, 2 / 12].map((x) => expect.closeTo(x)),
    );
    expect(funnel.stages.rows[2].ofPrevious).toBe(0.7);
    expect(funnel.stages.rows[3].ofPrevious).toBeCloseTo(6 / 7);
    expect(funnel.stages.rows[6].ofPrevious).toBe(0.5);
  });

  it("puts tasks without an environment in their own stage, never among the build failures", () => {
    const noEnvironment = funnel.drops.rows.filter((r) => r.cause === "no environment yet");
    expect(noEnvironment.map((r) => [r.gate, r.tasks])).toEqual([["Has an environment (a recipe, image or spec)", 2]]);
    expect(funnel.drops.rows.filter((r) => r.gate === "Built").reduce((sum, r) => sum + Number(r.tasks), 0)).toBe(3);
  });

  it("lists each drop with its cause in words, largest first, as a share of the tasks reaching that gate", () => {
    const built = funnel.drops.rows.filter((r) => r.gate === "Built");
    expect(built.map((r) => [r.cause, r.tasks, r.ofReaching])).toEqual([
      ["not validated yet", 2, 0.2],
      ["BUILD_ERROR", 1, 0.1],
    ]);
    expect(funnel.drops.rows.find((r) => String(r.gate).startsWith("Approved"))).toMatchObject({
      cause: "awaiting a curator",
      tasks: 2,
      ofReaching: 0.5,
    });
  });

  it("links each number to the slice of exactly its tasks", () => {
    expect(sliceOf(funnel.stages.drill["all tasks|positive"].tasks)).toEqual({
      page: "funnel",
      params: { stage: "positive" },
    });
    const dropKey = funnel.drops.rows.find((r) => r.cause === "BUILD_ERROR")!.key;
    expect(sliceOf(funnel.drops.drill[dropKey].tasks)).toEqual({
      page: "funnel",
      params: { gate: "built", cause: "BUILD_ERROR" },
    });
  });

  it("splits by a dimension and keeps the page's filters in every slice", () => {
    const split = buildFunnel(FunnelQuerySchema.parse({ by: "source", repository: "a/b" }), [
      { grp: "DEMO", stop: 7, cause: null, n: 3 },
      { grp: "SWE_BENCH", stop: 2, cause: "NOT_VALIDATED", n: 4 },
    ]);
    expect(split.groups).toEqual(["DEMO", "SWE_BENCH"]);
    expect(split.stages.rows.filter((r) => r.group === "SWE_BENCH").map((r) => r.tasks)).toEqual([4, 4, 0, 0, 0, 0, 0]);
    expect(sliceOf(split.stages.drill["DEMO|approved"].tasks)?.params).toEqual({
      source: "DEMO",
      repository: "a/b",
      stage: "approved",
    });
  });
});
