/**
 * An analytics page's filters as one canonical query string (keys sorted, a repeated key's
 * values in their order): the page's cache key and the query it asks
 * /api/v1/analytics/<page> with, derived from the URL alike by the server page that reads
 * the figures first and by the browser.
 */
export function analyticsQueryString(params: URLSearchParams): string {
  return new URLSearchParams([...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
}
