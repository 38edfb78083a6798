// A slice names a set of tasks behind one number on an analytics page, as one URL value:
// "funnel;stage=built;source=DEMO". The task list takes it as ?slice= and shows exactly the
// tasks the page counted (lib/analytics/resolve-slice.ts). Browser-safe.

export const ANALYTICS_PAGES = ["funnel", "reviewers", "revisions", "generated-tests", "verifiability"] as const;
export type AnalyticsPage = (typeof ANALYTICS_PAGES)[number];
export type SliceParams = Record<string, string>;
export type Slice = { page: AnalyticsPage; params: SliceParams };

export function encodeSlice(page: AnalyticsPage, params: SliceParams): string {
  const parts = Object.keys(params)
    .sort()
    .map((key) => `${key}=${encodeURIComponent(params[key])}`);
  return [page, ...parts].join(";");
}

/** null when the text is not a slice (an edited or truncated URL). */
export function decodeSlice(text: string): Slice | null {
  const [page, ...parts] = text.split(";");
  if (!(ANALYTICS_PAGES as readonly string[]).includes(page)) return null;
  const params: SliceParams = {};
  for (const part of parts) {
    const at = part.indexOf("=");
    if (at <= 0) return null;
    try {
      params[part.slice(0, at)] = decodeURIComponent(part.slice(at + 1));
    } catch {
      return null;
    }
  }
  return { page: page as AnalyticsPage, params };
}

/** The task list link for a slice. */
export const sliceHref = (page: AnalyticsPage, params: SliceParams) =>
  `/tasks?${new URLSearchParams({ slice: encodeSlice(page, params) })}`;

/** A slice in words, for the task list's filter chip. */
export function describeSlice(text: string): string {
  const slice = decodeSlice(text);
  if (!slice) return "an analytics slice that is no longer valid";
  const details = Object.entries(slice.params).map(([k, v]) => `${k} ${v}`);
  return `${slice.page}${details.length ? `: ${details.join(", ")}` : ""}`;
}
