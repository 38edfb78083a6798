// Chance-corrected agreement between curators. Pure functions; kappa is null when it is
// undefined (chance agreement is already perfect, e.g. both raters used one category only).

export type CohenResult = { kappa: number | null; observed: number; expected: number; items: number };

/** Cohen's kappa for two raters who labelled the same items (ratingsA[i] and ratingsB[i] are item i). */
export function cohenKappa<T extends string>(ratingsA: readonly T[], ratingsB: readonly T[]): CohenResult {
  if (ratingsA.length !== ratingsB.length) throw new Error("both raters must label the same items");
  const n = ratingsA.length;
  if (n === 0) return { kappa: null, observed: 0, expected: 0, items: 0 };
  const countA = new Map<T, number>();
  const countB = new Map<T, number>();
  let agreements = 0;
  for (let i = 0; i < n; i++) {
    if (ratingsA[i] === ratingsB[i]) agreements++;
    countA.set(ratingsA[i], (countA.get(ratingsA[i]) ?? 0) + 1);
    countB.set(ratingsB[i], (countB.get(ratingsB[i]) ?? 0) + 1);
  }
  const observed = agreements / n;
  let expected = 0;
  for (const [category, a] of countA) expected += (a / n) * ((countB.get(category) ?? 0) / n);
  return { kappa: expected === 1 ? null : (observed - expected) / (1 - expected), observed, expected, items: n };
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
  return { kappa: expected === 1 ? null : (observed - expected) / (1 - expected), observed, expected, items: rated.length };
}

/** Landis & Koch's words for a kappa, shown beside the number. */
export function describeKappa(kappa: number | null): string {
  if (kappa === null) return "undefined";
  if (kappa < 0) return "worse than chance";
  if (kappa <= 0.2) return "slight";
  if (kappa <= 0.4) return "fair";
  if (kappa <= 0.6) return "moderate";
  if (kappa <= 0.8) return "substantial";
  return "almost perfect";
}
