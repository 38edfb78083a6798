import { rateOf, type FigureTable } from "@/lib/analytics/figures";
import type { ChartDatum } from "@/components/charts/bar-chart";

/** A rate series: the row key it reads and the count its bar opens (the tasks behind the rate). */
export type RateSeries = { key: string; name: string; drill: string };

/**
 * One bar group per table row, one bar per rate, each with its count and 95 % interval and
 * the link to its tasks. `label` names the row (default: its key, which the lib never leaves empty).
 */
export function rateChartData(
  table: FigureTable,
  rates: RateSeries[],
  label: (key: string) => string = (key) => key,
): ChartDatum[] {
  return table.rows.map((row) => ({
    label: label(row.key),
    values: Object.fromEntries(rates.map((r) => [r.key, rateOf(row, r.key)?.rate ?? null])),
    hrefs: Object.fromEntries(rates.map((r) => [r.key, table.drill[row.key]?.[r.drill]])),
    proportions: Object.fromEntries(rates.map((r) => [r.key, rateOf(row, r.key)])),
  }));
}
