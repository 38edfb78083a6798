// JSON has no bigint and JSON.stringify throws on one; PostgreSQL counts and byte sizes
// arrive as bigints. Every place that writes JSON (API answers, audit events, the CLI,
// Parquet rows) turns them into JSON the same way, here.

/** A bigint as JSON carries it: a number while that is exact, else its decimal text. */
export const bigintToJson = (value: bigint): number | string =>
  Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();

/** A JSON.stringify replacer writing every bigint with bigintToJson. */
export const bigintReplacer = (_key: string, value: unknown): unknown =>
  typeof value === "bigint" ? bigintToJson(value) : value;

/**
 * JSON text of a value that may hold bigints. A replacer is called back for every key and
 * value, which made it a measurable share of a list answer's server time, so the plain
 * stringify runs first and the replacer only when a bigint made it throw.
 */
export function toJsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (error instanceof TypeError && error.message.includes("BigInt")) return JSON.stringify(value, bigintReplacer);
    throw error;
  }
}

/** A value that may hold bigints, as plain JSON data (for a JSON column, or a direct-database CLI answer shaped like the API's). */
export const toJsonData = <T = unknown>(value: unknown): T => JSON.parse(toJsonText(value)) as T;
