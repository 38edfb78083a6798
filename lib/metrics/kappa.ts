// Chance-corrected agreement between curators. Pure functions; kappa is null when it is
// undefined (chance agreement is already perfect, e.g. both raters used one category only).

export type CohenResult = { kappa: number | null; observed: number; expected: number; items: number };

/** Cohen's kappa for two raters who labelled the same items (ratingsA[i] and ratingsB[i] are item i). */
export function cohenKappa<T extends string>(ratingsA: readonly T[], ratingsB: readonly T[]): CohenResult {
  const categories = [...new Set([...ratingsA, ...ratingsB])];
  return weightedKappa(
    ratingsA.map((r) => categories.indexOf(r)),
    ratingsB.map((r) => categories.indexOf(r)),
    (i, j) => (i === j ? 0 : 1),
  );
}

export type KappaWeights = "linear" | "quadratic";

/**
 * Weighted Cohen's kappa for an ordinal scale: a disagreement of d levels costs d (linear) or
 * d² (quadratic). `scale` is every level in order (levels nobody used still count for the
 * distance between the others); by default the levels seen.
 */
export function weightedCohenKappa(
  ratingsA: readonly number[],
  ratingsB: readonly number[],
  weights: KappaWeights,
  scale?: readonly number[],
): CohenResult {
  const levels = [...(scale ?? new Set([...ratingsA, ...ratingsB]))].sort((x, y) => x - y);
  const index = (value: number) => levels.indexOf(value);
  const cost =
    weights === "linear" ? (i: number, j: number) => Math.abs(i - j) : (i: number, j: number) => (i - j) ** 2;
  return weightedKappa(ratingsA.map(index), ratingsB.map(index), cost);
}

/**
 * The one kappa: 1 − observed disagreement / disagreement expected by chance, with a
 * disagreement cost per pair of category indexes (0/1 for plain Cohen's kappa). observed and
 * expected are reported as agreement (1 − normalised disagreement), so for 0/1 costs they are
 * the familiar p_o and p_e.
 */
function weightedKappa(
  a: readonly number[],
  b: readonly number[],
  cost: (i: number, j: number) => number,
): CohenResult {
  if (a.length !== b.length) throw new Error("both raters must label the same items");
  const n = a.length;
  if (n === 0) return { kappa: null, observed: 0, expected: 0, items: 0 };
  const k = Math.max(...a, ...b) + 1;
  const countA = new Array<number>(k).fill(0);
  const countB = new Array<number>(k).fill(0);
  let maxCost = 0;
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) maxCost = Math.max(maxCost, cost(i, j));
  let observedCost = 0;
  for (let i = 0; i < n; i++) {
    observedCost += cost(a[i], b[i]);
    countA[a[i]]++;
    countB[b[i]]++;
  }
  let expectedCost = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) expectedCost += (countA[i] / n) * (countB[j] / n) * cost(i, j);
  observedCost /= n;
  const scale = maxCost || 1;
  const observed = 1 - observedCost / scale;
  const expected = 1 - expectedCost / scale;
  return { kappa: expectedCost === 0 ? null : 1 - observedCost / expectedCost, observed, expected, items: n };
}

export type FleissResult = { kappa: number | null; observed: number; expected: number; items: number };

/**
 * Fleiss' kappa. counts[i][j] = how many raters put item i in category j. Items may have
 * different numbers of raters (curators do not all review every task): each item's
 * agreement uses its own rater count, and items with fewer than two raters are skipped.
 */
export function fleissKappa(counts: readonly (readonly number[])[]): FleissResult {
  const rated = counts.filter((row) => row.reduce((s, c) => s + c, 0) >= 2);
  if (rated.length === 0) return { kappa: null, observed: 0, expected: 0, items: 0 };
  const categories = Math.max(...rated.map((row) => row.length));
  const totals = new Array<number>(categories).fill(0);
  let ratings = 0;
  let agreementSum = 0;
  for (const row of rated) {
    const raters = row.reduce((s, c) => s + c, 0);
    let pairsAgreeing = 0;
    row.forEach((c, j) => {
      totals[j] += c;
      pairsAgreeing += c * (c - 1);
    });
    ratings += raters;
    agreementSum += pairsAgreeing / (raters * (raters - 1));
  }
  const observed = agreementSum / rated.length;
  const expected = totals.reduce((s, t) => s + (t / ratings) ** 2, 0);
  return {
    kappa: expected === 1 ? null : (observed - expected) / (1 - expected),
    observed,
    expected,
    items: rated.length,
  };
}

/** Landis & Koch's words for a kappa, shown beside the number. */
export function describeKappa(kappa: number | null): string {
  if (kappa === null) return "not computable: every label the same";
  if (kappa < 0) return "worse than chance";
  if (kappa <= 0.2) return "slight";
  if (kappa <= 0.4) return "fair";
  if (kappa <= 0.6) return "moderate";
  if (kappa <= 0.8) return "substantial";
  return "almost perfect";
}
