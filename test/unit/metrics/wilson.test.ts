import { describe, expect, it } from "vitest";
import { describeProportion, proportion, wilsonInterval } from "@/lib/metrics/wilson";

// Reference values: Newcombe, "Two-sided confidence intervals for the single proportion:
// comparison of seven methods", Statistics in Medicine 17 (1998), table II, method 3 (Wilson score, no continuity correction).
const NEWCOMBE: [number, number, number, number][] = [
  [81, 263, 0.2553, 0.3662],
  [15, 148, 0.0624, 0.1605],
  [0, 20, 0, 0.1611],
  [1, 29, 0.0061, 0.1718],
];

describe("Wilson score interval (95 %)", () => {
  it.each(NEWCOMBE)("%i of %i is %f–%f as published", (k, n, low, high) => {
    const [l, h] = wilsonInterval(k, n);
    expect(l).toBeCloseTo(low, 4);
    expect(h).toBeCloseTo(high, 4);
  });

  it("one success of one is 100 % but only 20.7–100 %", () => {
    expect(proportion(1, 1)).toEqual({ rate: 1, successes: 1, n: 1, low: expect.closeTo(0.2065, 4), high: 1 });
    expect(proportion(0, 1)).toEqual({ rate: 0, successes: 0, n: 1, low: 0, high: expect.closeTo(0.7935, 4) });
  });

  it("is symmetric around one half and narrows as n grows", () => {
    const [l, h] = wilsonInterval(5, 10) as [number, number];
    expect(l + h).toBeCloseTo(1, 10);
    const [l2, h2] = wilsonInterval(500, 1000) as [number, number];
    expect(h2 - l2).toBeLessThan((h - l) / 5);
  });

  it("says nothing was measured for n = 0 and refuses an impossible count", () => {
    expect(proportion(0, 0)).toEqual({ rate: null, successes: 0, n: 0, low: null, high: null });
    expect(() => wilsonInterval(3, 2)).toThrow(/0 ≤ successes ≤ n/);
  });

  it("reads with its count and interval", () => {
    expect(describeProportion(proportion(1, 1))).toBe("100.0 % (1 of 1; 95 % CI 21–100 %)");
    expect(describeProportion(proportion(0, 0))).toBe("— (0 of 0)");
  });
});
