import type { SliceParams } from "./slice-key";

// Pages computed in code (reviewers, generated tests, verifiability) load one fact row per
// item, then count with predicates. The drill-down selects with the same predicates, so the
// tasks behind a number are exactly the items it counted.

export type Dimensions<T> = Record<string, (item: T) => string>;
export type Outcomes<T> = Record<string, (item: T, params: SliceParams) => boolean>;

/** Items whose dimensions equal the slice's values and that meet its `outcome` (all when none). */
export function selectItems<T>(items: T[], params: SliceParams, dimensions: Dimensions<T>, outcomes: Outcomes<T>): T[] {
  const outcome = params.outcome ? outcomes[params.outcome] : undefined;
  if (params.outcome && !outcome) return [];
  return items.filter(
    (item) =>
      Object.entries(dimensions).every(
        ([key, valueOf]) => params[key] === undefined || valueOf(item) === params[key],
      ) &&
      (!outcome || outcome(item, params)),
  );
}

/** Items split by the chosen dimensions, in key order; the group's values become slice params. */
export function groupItems<T>(
  items: T[],
  by: string[],
  dimensions: Dimensions<T>,
): { key: string; values: SliceParams; items: T[] }[] {
  const groups = new Map<string, { key: string; values: SliceParams; items: T[] }>();
  for (const item of items) {
    const values = Object.fromEntries(by.map((d) => [d, dimensions[d](item)]));
    const key = by.length ? by.map((d) => values[d]).join(" × ") : "all";
    const group = groups.get(key) ?? { key, values, items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** The filter params (dimension → value) present in a query, dropping empty ones. */
export function dimensionFilters(query: Record<string, unknown>, dimensions: Dimensions<unknown>): SliceParams {
  return Object.fromEntries(
    Object.keys(dimensions).flatMap((d) => (typeof query[d] === "string" && query[d] ? [[d, query[d] as string]] : [])),
  );
}

export const uniqueTaskIds = (items: { taskId: string }[]) => [...new Set(items.map((i) => i.taskId))];
