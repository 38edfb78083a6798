import { describe, expect, it } from "vitest";
import { engineHealth, FAILED_CHECKS_BEFORE_DOWN } from "@/lib/docker/engine-health";

const afterChecks = (checks: boolean[]) => {
  const health = engineHealth();
  return checks.map((reachable) => health.record(reachable));
};

describe("an engine's health as its worker's claims see it", () => {
  it("stays healthy through slow answers fewer than the limit, so a loaded engine keeps its runs", () => {
    const blips = Array.from({ length: FAILED_CHECKS_BEFORE_DOWN - 1 }, () => false);
    expect(afterChecks([true, ...blips, true, ...blips])).toEqual([
      true,
      ...blips.map(() => true),
      true,
      ...blips.map(() => true),
    ]);
  });

  it("counts the engine down once it fails the limit in a row, and up again at its first answer", () => {
    const failures = Array.from({ length: FAILED_CHECKS_BEFORE_DOWN }, () => false);
    const seen = afterChecks([true, ...failures, false, true]);
    expect(seen.at(FAILED_CHECKS_BEFORE_DOWN)).toBe(false);
    expect(seen.at(-2)).toBe(false);
    expect(seen.at(-1)).toBe(true);
  });

  it("believes the first check at once: a worker started beside a dead engine claims no run", () => {
    expect(afterChecks([false])).toEqual([false]);
    expect(afterChecks([false, true])).toEqual([false, true]);
  });
});
