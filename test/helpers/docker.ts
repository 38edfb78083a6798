import { createDockerEngine } from "../../lib/docker/dockerode-engine";

const BASE_IMAGE = process.env.BASE_IMAGE || "swe-curator/python-base:bookworm";

const FALSY = new Set(["", "0", "false", "no", "off"]);
const isTruthy = (value: string | undefined) => value !== undefined && !FALSY.has(value.trim().toLowerCase());

/**
 * Whether a missing Docker engine fails the Docker tests instead of skipping them: any
 * truthy REQUIRE_DOCKER (1, true, yes…), or a CI (CI=true, as every CI service sets), so
 * a CI that calls `npm test` directly cannot go green without containers.
 */
export function dockerRequired(env: Record<string, string | undefined> = process.env): boolean {
  if (env.REQUIRE_DOCKER !== undefined) return isTruthy(env.REQUIRE_DOCKER);
  return isTruthy(env.CI);
}

/**
 * Whether this machine can run the Docker integration tests. When Docker is required
 * (see dockerRequired) a missing engine or base image is a failure, not a skip.
 */
export async function dockerForTests(): Promise<{ ready: boolean; reason?: string }> {
  const engine = createDockerEngine();
  const status = await engine.status();
  let reason: string | undefined;
  if (!status.reachable) reason = status.error;
  else if (!(await engine.imageInfo(BASE_IMAGE).catch(() => null))) reason = `base image ${BASE_IMAGE} is missing: run \`npm run images:base\``;
  if (!reason) return { ready: true };
  if (dockerRequired()) throw new Error(`Docker is required here (REQUIRE_DOCKER=${process.env.REQUIRE_DOCKER ?? "unset"}, CI=${process.env.CI ?? "unset"}) but not usable: ${reason}`);
  console.warn(`[skip] Docker integration tests skipped: ${reason} (set REQUIRE_DOCKER=1 to make this a failure)`);
  return { ready: false, reason };
}
