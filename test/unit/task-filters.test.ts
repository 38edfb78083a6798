import { describe, expect, it } from "vitest";
import {
  countActiveFilters,
  decodeCursor,
  encodeCursor,
  filtersFromSearchParams,
  filtersToSearchParams,
} from "@/lib/tasks/task-filters";
import { prefixTsQuery, searchTerms } from "@/lib/tasks/task-list-sql";
import { decisionProblem, overridesAutomated, statusFromDecisions } from "@/lib/curation/decision-rules";

describe("task filters in the URL", () => {
  it("reads repeated and comma-separated values, and writes one canonical query string", () => {
    const filters = filtersFromSearchParams(
      new URLSearchParams("status=PENDING,APPROVED&status=REJECTED&q=%20zero%20&sort=instance_asc&decided=yes"),
    );
    expect(filters).toMatchObject({
      status: ["PENDING", "APPROVED", "REJECTED"],
      q: "zero",
      sort: "instance_asc",
      decided: "yes",
    });
    expect(filtersToSearchParams(filters).toString()).toBe(
      "q=zero&decided=yes&status=PENDING%2CAPPROVED%2CREJECTED&sort=instance_asc",
    );
    expect(countActiveFilters(filters)).toBe(3);
  });

  it("drops an invalid value instead of failing the page, and omits defaults", () => {
    const filters = filtersFromSearchParams(
      new URLSearchParams("difficulty=IMPOSSIBLE&source=OPENSWE&createdFrom=2026-13-45"),
    );
    expect(filters.difficulty).toEqual([]);
    expect(filters.createdFrom).toBeUndefined();
    expect(filtersToSearchParams(filters).toString()).toBe("source=OPENSWE");
  });

  it("round-trips an opaque cursor and rejects a forged one", () => {
    expect(decodeCursor(encodeCursor(["2026-01-01T00:00:00.000Z", "task-1"]))).toEqual([
      "2026-01-01T00:00:00.000Z",
      "task-1",
    ]);
    expect(decodeCursor("bm90IGpzb24")).toBeNull();
  });
});

describe("search terms", () => {
  it("keeps quoted phrases whole and escapes quotes for the tsquery", () => {
    expect(searchTerms('ZeroDivisionError "empty list"  mean')).toEqual(["ZeroDivisionError", "empty list", "mean"]);
    expect(prefixTsQuery("o'brien\\x")).toBe("'o''brien\\\\x':*");
  });
});

describe("decision rules", () => {
  it("a reject wins, then needs-changes, then enough approvals", () => {
    expect(statusFromDecisions(["APPROVE", "REJECT"], 1)).toBe("REJECTED");
    expect(statusFromDecisions(["APPROVE", "NEEDS_CHANGES"], 1)).toBe("NEEDS_CHANGES");
    expect(statusFromDecisions(["APPROVE"], 2)).toBe("PENDING");
    expect(statusFromDecisions(["APPROVE", "APPROVE"], 2)).toBe("APPROVED");
  });

  it("contradicting automation needs a justification; rejecting needs a reason", () => {
    expect(overridesAutomated("APPROVE", "INVALID")).toBe(true);
    expect(overridesAutomated("REJECT", "PENDING")).toBe(false);
    expect(decisionProblem({ verdict: "REJECT", reasons: [] }, "PENDING")).toMatch(/at least one reason/);
    expect(decisionProblem({ verdict: "APPROVE", reasons: [], justification: "short" }, "FLAKY")).toMatch(
      /justification/,
    );
    expect(
      decisionProblem({ verdict: "APPROVE", reasons: [], justification: "the flake was the network" }, "FLAKY"),
    ).toBeNull();
  });
});
