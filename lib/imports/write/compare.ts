// Postgres jsonb reorders object keys and Prisma returns Dates, so "did this record
// change?" compares a canonical form, not the raw values.

export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => {
    if (v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date)) {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, (v as Record<string, unknown>)[k]]),
      );
    }
    return v;
  });
}

const normalise = (value: unknown) =>
  value === undefined ? null : value instanceof Date ? value.toISOString() : value;

export function sameValue(a: unknown, b: unknown): boolean {
  const x = normalise(a);
  const y = normalise(b);
  if (x === y) return true;
  if (x === null || y === null || typeof x !== "object" || typeof y !== "object") return false;
  return canonicalJson(x) === canonicalJson(y);
}

export function changedFields<F extends string>(
  current: Record<string, unknown>,
  incoming: Record<F, unknown>,
  fields: readonly F[],
): F[] {
  return fields.filter((field) => !sameValue(current[field], incoming[field]));
}
