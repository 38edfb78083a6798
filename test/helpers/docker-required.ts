const FALSY = new Set(["", "0", "false", "no", "off"]);
const isTruthy = (value: string | undefined) => value !== undefined && !FALSY.has(value.trim().toLowerCase());

/**
 * Whether a missing Docker engine fails the Docker tests instead of skipping them: any
 * truthy REQUIRE_DOCKER (1, true, yes…), or a CI (CI=true, as every CI service sets), so
 * a CI that calls `npm test` directly cannot go green without containers. scripts/test.ts
 * also fails such a run when any test skips that test/skip-allowed.json does not list.
 */
export function dockerRequired(env: Record<string, string | undefined> = process.env): boolean {
  if (env.REQUIRE_DOCKER !== undefined) return isTruthy(env.REQUIRE_DOCKER);
  return isTruthy(env.CI);
}
