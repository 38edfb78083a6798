// Krippendorff's alpha (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"):
// any number of coders, missing values allowed, a distance per level of measurement. Built
// from the coincidence matrix: alpha = 1 − D_observed / D_expected. Null when undefined
// (fewer than two pairable values, or every value the same).

export type AlphaLevel = "nominal" | "ordinal" | "interval";
export type AlphaResult = { alpha: number | null; units: number; pairable: number };

/** units[u] = the values coders gave unit u (missing values simply left out). */
export function krippendorffAlpha(units: readonly (readonly (string | number)[])[], level: AlphaLevel): AlphaResult {
  const pairable = units.filter((values) => values.length >= 2);
  const values = [...new Set(pairable.flat())].sort((a, b) =>
    typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b)),
  );
  const index = new Map(values.map((v, i) => [v, i]));
  const k = values.length;
  const coincidences = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const unit of pairable) {
    const m = unit.length;
    for (let i = 0; i < m; i++)
      for (let j = 0; j < m; j++) if (i !== j) coincidences[index.get(unit[i])!][index.get(unit[j])!] += 1 / (m - 1);
  }
  const marginals = coincidences.map((row) => row.reduce((s, c) => s + c, 0));
  const n = marginals.reduce((s, c) => s + c, 0);
  const result = { units: units.length, pairable: pairable.length };
  if (n < 2 || k < 2) return { alpha: null, ...result };
  const delta = distance(level, values, marginals);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) {
      observed += coincidences[c][d] * delta(c, d);
      expected += marginals[c] * marginals[d] * delta(c, d);
    }
  }
  observed /= n;
  expected /= n * (n - 1);
  return { alpha: expected === 0 ? null : 1 - observed / expected, ...result };
}

/** The squared distance between levels c and d (by index into the sorted values). */
function distance(
  level: AlphaLevel,
  values: readonly (string | number)[],
  marginals: readonly number[],
): (c: number, d: number) => number {
  if (level === "nominal") return (c, d) => (c === d ? 0 : 1);
  if (level === "interval") return (c, d) => (Number(values[c]) - Number(values[d])) ** 2;
  // ordinal: the ranks between the two levels, by how often each value was used
  return (c, d) => {
    const [lo, hi] = c < d ? [c, d] : [d, c];
    let between = 0;
    for (let g = lo; g <= hi; g++) between += marginals[g];
    return (between - (marginals[c] + marginals[d]) / 2) ** 2;
  };
}
