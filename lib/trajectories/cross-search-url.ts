// The search page's URL and the API's query strings, built one way on the server (the page's
// first HTML) and in the browser, so both sides name the same cached query.

export type CrossSearchParams = { q: string; model: string; task: string; verdict: string; tab: "steps" | "clusters" };
type Filter = "q" | "model" | "task" | "verdict";

const FAILED = ["UNRESOLVED", "ERRORED"];

/** The API's query string for the search's filters (empty ones left out). */
export function crossSearchQueryString(
  params: Omit<CrossSearchParams, "tab">,
  only: readonly Filter[] = ["q", "model", "task", "verdict"],
): string {
  const query = new URLSearchParams();
  for (const key of only) if (params[key]) query.set(key, params[key]);
  return query.toString();
}

/** The clusters' filters: no words, and an outcome only when it is a failed one. */
export function clusterQueryString(params: Omit<CrossSearchParams, "tab">): string {
  return crossSearchQueryString({ ...params, verdict: FAILED.includes(params.verdict) ? params.verdict : "" }, [
    "model",
    "task",
    "verdict",
  ]);
}

/** The page's parameters from its URL: unknown values become empty, each text cut to what the API takes. */
export function crossSearchParamsOf(query: Record<string, string | string[] | undefined>): CrossSearchParams {
  const one = (key: string) => {
    const value = query[key];
    return ((Array.isArray(value) ? value[0] : value) ?? "").slice(0, 200);
  };
  return {
    q: one("q"),
    model: one("model"),
    task: one("task"),
    verdict: one("verdict"),
    tab: one("tab") === "clusters" ? "clusters" : "steps",
  };
}
