import { createDockerEngine } from "../../lib/docker/dockerode-engine";

const BASE_IMAGE = process.env.BASE_IMAGE || "swe-curator/python-base:bookworm";

/**
 * Whether this machine can run the Docker integration tests. With REQUIRE_DOCKER=1 (CI)
 * a missing engine or base image is a failure, not a skip.
 */
export async function dockerForTests(): Promise<{ ready: boolean; reason?: string }> {
  const engine = createDockerEngine();
  const status = await engine.status();
  let reason: string | undefined;
  if (!status.reachable) reason = status.error;
  else if (!(await engine.imageInfo(BASE_IMAGE).catch(() => null))) reason = `base image ${BASE_IMAGE} is missing: run \`npm run images:base\``;
  if (!reason) return { ready: true };
  if (process.env.REQUIRE_DOCKER === "1") throw new Error(`REQUIRE_DOCKER=1 but Docker is not usable: ${reason}`);
  console.warn(`[skip] Docker integration tests skipped: ${reason} (set REQUIRE_DOCKER=1 to make this a failure)`);
  return { ready: false, reason };
}
