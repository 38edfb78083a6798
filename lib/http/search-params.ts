/** A page's searchParams (as Next hands them to a server page) as URLSearchParams, repeated keys kept in their order. */
export function toSearchParams(record: Record<string, string | string[] | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(record))
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(key, v);
  return params;
}

/** Search params as the object a route's query schema reads: one value as a string, a repeated key as an array (what defineRoute passes). */
export function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    raw[key] = all.length > 1 ? all : all[0];
  }
  return raw;
}
