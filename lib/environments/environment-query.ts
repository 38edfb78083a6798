/** The URL parameters that filter and sort the environment list, in the order a canonical query string lists them. */
const LIST_KEYS = ["q", "source", "repository", "sort"] as const;

/**
 * The environment list's filters from a URL, as one canonical query string: the list's
 * cache key and the query it asks /api/v1/environments with. The server page and the
 * browser both derive it from the URL, so the rows read with the page are found by the
 * client under the same key (other parameters, a stale cursor, are dropped).
 */
export function environmentListQueryString(params: URLSearchParams): string {
  const canonical = new URLSearchParams();
  for (const key of LIST_KEYS) for (const value of params.getAll(key)) canonical.append(key, value);
  return canonical.toString();
}
