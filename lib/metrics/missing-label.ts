// Group names for charts, tables and reviewer scores: a missing value gets a name of its own,
// so no page ever says "undefined" or "null". It sits with the metrics because reviewer scores
// (lib/trajectories) and the analytics pages above them both name their groups with it.

/** A group's name for a missing value: a chart or table never says "undefined" or "null". */
export const labelOrMissing = (value: string | null | undefined, missing: string): string =>
  value === null || value === undefined || value.trim() === "" || value === "undefined" || value === "null"
    ? missing
    : value;
