// The Wilson score interval for a proportion: unlike the normal approximation it stays inside
// [0, 1] and is honest for few items (1 of 1 is 100 %, but only "somewhere in 21–100 %").
// Every rate the product shows (analytics pages, reviewer scores, the API) takes its interval
// from here, so the page and the API never disagree.

/** z for a two-sided 95 % interval */
const Z95 = 1.959963984540054;

export type Proportion = {
  /** successes / n, or null when nothing was measured (a rate of nothing is undefined, not zero) */
  rate: number | null;
  successes: number;
  n: number;
  /** the 95 % Wilson score interval; null when n = 0 */
  low: number | null;
  high: number | null;
};

/** The 95 % Wilson score interval of `successes` out of `n` ([null, null] for n = 0). */
export function wilsonInterval(successes: number, n: number, z = Z95): [number, number] | [null, null] {
  if (n <= 0) return [null, null];
  if (successes < 0 || successes > n)
    throw new RangeError(`A proportion needs 0 ≤ successes ≤ n, got ${successes} of ${n}`);
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // clamp the float noise at the ends (0 of n must start at exactly 0, n of n end at exactly 1)
  return [successes === 0 ? 0 : Math.max(0, centre - half), successes === n ? 1 : Math.min(1, centre + half)];
}

/** A rate with its count and its 95 % Wilson interval. */
export function proportion(successes: number, n: number): Proportion {
  const [low, high] = wilsonInterval(successes, n);
  return { rate: n === 0 ? null : successes / n, successes, n, low, high };
}

const pct = (v: number, digits: number) => `${(v * 100).toFixed(digits)} %`;

/** "100 % (1 of 1; 95 % CI 21–100 %)", or "— (0 of 0)" when nothing was measured. */
export function describeProportion(p: Proportion, digits = 1): string {
  if (p.rate === null || p.low === null || p.high === null) return `— (${p.successes} of ${p.n})`;
  return `${pct(p.rate, digits)} (${p.successes} of ${p.n}; 95 % CI ${(p.low * 100).toFixed(0)}–${pct(p.high, 0)})`;
}
