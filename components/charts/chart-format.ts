import { describeProportion, type Proportion } from "@/lib/metrics/wilson";

// One way to write numbers in every chart and table, on the server and in every browser
// (the first HTML is rendered on the server; hydration must find the same text).

/** Category labels longer than this are cut in the chart; the full text is in its title and the table. */
export const LABEL_CHARS = 30;

export const shortLabel = (label: string) =>
  label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label;

export const formatPercent = (v: number, digits = 1) => `${(v * 100).toFixed(digits)} %`;

export const formatCount = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 0 });

/** "100 % (1/1)": short enough to print beside a bar. */
export function formatRateShort(p: Proportion): string {
  return p.rate === null ? `no data (0/${p.n})` : `${formatPercent(p.rate, 0)} (${p.successes}/${p.n})`;
}

/** "100.0 % (1 of 1; 95 % CI 21–100 %)" — the table's and tooltip's words for a rate (the API's describeProportion). */
export const formatRate = (p: Proportion) => describeProportion(p);
