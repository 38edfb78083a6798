// JSON has no bigint and JSON.stringify throws on one; PostgreSQL counts and byte sizes
// arrive as bigints. Every place that writes JSON (API answers, audit events, the CLI,
// Parquet rows) turns them into JSON the same way, here.

/** A bigint as JSON carries it: a number while that is exact, else its decimal text. */
export const bigintToJson = (value: bigint): number | string => (Number.isSafeInteger(Number(value)) ? Number(value) : value.toString());

/** A JSON.stringify replacer writing every bigint with bigintToJson. */
export const bigintReplacer = (_key: string, value: unknown): unknown => (typeof value === "bigint" ? bigintToJson(value) : value);

/** A value that may hold bigints, as plain JSON data (for a JSON column, or a direct-database CLI answer shaped like the API's). */
export const toJsonData = <T = unknown>(value: unknown): T => JSON.parse(JSON.stringify(value, bigintReplacer)) as T;
