import { createDockerEngine } from "../../lib/docker/dockerode-engine";
import { dockerRequired } from "./docker-required";
import { skipBecause } from "./skips";

export { dockerRequired };

const BASE_IMAGE = process.env.BASE_IMAGE || "swe-curator/python-base:bookworm";

/**
 * Whether this machine can run the Docker integration tests. When Docker is required
 * (see dockerRequired) a missing engine or base image is a failure, not a skip.
 */
export async function dockerForTests(): Promise<{ ready: boolean; reason?: string }> {
  const engine = createDockerEngine();
  const status = await engine.status();
  let reason: string | undefined;
  if (!status.reachable) reason = status.error;
  else if (!(await engine.imageInfo(BASE_IMAGE).catch(() => null)))
    reason = `base image ${BASE_IMAGE} is missing: run \`npm run images:base\``;
  if (!reason) return { ready: true };
  if (dockerRequired())
    throw new Error(
      `Docker is required here (REQUIRE_DOCKER=${process.env.REQUIRE_DOCKER ?? "unset"}, CI=${process.env.CI ?? "unset"}) but not usable: ${reason}`,
    );
  skipBecause(`no usable Docker engine: ${reason} (set REQUIRE_DOCKER=1 to make this a failure)`);
  return { ready: false, reason };
}
