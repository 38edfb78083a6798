import type Docker from "dockerode";
import { statfs } from "node:fs/promises";
import { isLocalEngine } from "./build-cgroup";
import { LABEL_CONTEXT_HASH, LABEL_MANAGED } from "./container-labels";
import { isConnectionError, statusCodeOf } from "./docker-errors";
import { logFailure } from "../errors/log-failure";
import type { EngineFacts } from "./docker-engine";

// Images travel between the engines of a pool through one registry the installation
// names (REGISTRY_URL): a build pushes, a worker that lacks the image pulls. Nothing else
// is ever pulled, so an engine still never reaches the internet.

/** The registry's name for an image we tag locally as `repository:tag`. */
export function registryReference(registryHost: string, localTag: string): string {
  return `${registryHost}/${localTag}`;
}

/** The registry did not answer (or refused): the job waits and retries, the task is not blamed. */
export class RegistryUnavailableError extends Error {
  readonly retryable = true;
  constructor(registryHost: string, detail: string) {
    super(`the image registry at ${registryHost} did not answer (${detail})`);
    this.name = "RegistryUnavailableError";
  }
}

/** the pool's registry takes no credentials (it listens where only the pool reaches); the engine still wants the header */
const NO_CREDENTIALS = {};

type ProgressEvent = { error?: string; errorDetail?: { message?: string } };

/** Follows a push or pull stream to its end; the daemon reports failures as events, not as an HTTP status. */
export function followProgress(docker: Docker, stream: NodeJS.ReadableStream, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      (stream as unknown as { destroy?: (error?: Error) => void }).destroy?.(signal?.reason as Error);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    docker.modem.followProgress(stream, (error: Error | null, events: ProgressEvent[]) => {
      signal?.removeEventListener("abort", onAbort);
      const failed = events?.find((event) => event.error || event.errorDetail?.message);
      if (error) reject(error);
      else if (failed) reject(new Error(failed.errorDetail?.message ?? failed.error));
      else resolve();
    });
  });
}

export const splitTag = (reference: string) => {
  const colon = reference.lastIndexOf(":");
  return colon > reference.lastIndexOf("/")
    ? { repo: reference.slice(0, colon), tag: reference.slice(colon + 1) }
    : { repo: reference, tag: "latest" };
};

/** The daemon answers a registry it cannot reach with a 500 naming the dial error. */
export const unreachableRegistry = (message: string, error: unknown) =>
  /connection refused|connection reset|no such host|i\/o timeout|dial tcp|server gave HTTP response/i.test(message) ||
  isConnectionError(error);

function transferError(registryHost: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (unreachableRegistry(message, error)) {
    return new RegistryUnavailableError(registryHost, message.split("\n")[0]);
  }
  return error instanceof Error ? error : new Error(message);
}

/** Pushes a local image to the registry under the same repository and tag. */
export async function pushImage(
  docker: Docker,
  localTag: string,
  registryHost: string,
  signal?: AbortSignal,
): Promise<void> {
  const reference = registryReference(registryHost, localTag);
  const { repo, tag } = splitTag(reference);
  try {
    await docker.getImage(localTag).tag({ repo, tag });
    const stream = (await docker
      .getImage(reference)
      .push({ authconfig: NO_CREDENTIALS })) as unknown as NodeJS.ReadableStream;
    await followProgress(docker, stream, signal);
  } catch (error) {
    throw transferError(registryHost, error);
  } finally {
    // the registry's name is only for the journey: the engine keeps one name per image
    await untagTransferName(docker, reference);
  }
}

/**
 * Drops the registry's name of an image once it has travelled; the image keeps its local name.
 * A name already gone (404) is the goal reached; any other failure leaves a stray name on the
 * engine, which is logged and does not fail the transfer.
 */
function untagTransferName(docker: Docker, reference: string): Promise<void> {
  return docker
    .getImage(reference)
    .remove({ noprune: true })
    .then(
      () => undefined,
      logFailure(`Removing the transfer name ${reference}`, { expected: (error) => statusCodeOf(error) === 404 }),
    );
}

/** Pulls an image from the registry and names it locally as `localTag`. False when the registry does not have it. */
export async function pullImage(
  docker: Docker,
  localTag: string,
  registryHost: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const reference = registryReference(registryHost, localTag);
  const { repo, tag } = splitTag(localTag);
  try {
    const stream = (await docker.pull(reference, { authconfig: NO_CREDENTIALS })) as unknown as NodeJS.ReadableStream;
    await followProgress(docker, stream, signal);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (statusCodeOf(error) === 404 || /manifest unknown|not found/i.test(message)) return false;
    throw transferError(registryHost, error);
  }
  await docker.getImage(reference).tag({ repo, tag });
  await untagTransferName(docker, reference);
  return true;
}

/** What the Jobs page shows of an engine, and what the claim needs for locality and memory. */
export async function engineFacts(docker: Docker, endpoint: string): Promise<EngineFacts> {
  const info = (await docker.info()) as { MemTotal?: number; Images?: number; DockerRootDir?: string };
  const environmentImages = await docker.listImages({ filters: { label: [LABEL_CONTEXT_HASH] } });
  const running = await docker.listContainers({ filters: { label: [`${LABEL_MANAGED}=true`], status: ["running"] } });
  const reserved = await Promise.all(
    running.map((container) =>
      docker
        .getContainer(container.Id)
        .inspect()
        .then(
          (details) => details.HostConfig?.Memory ?? 0,
          () => 0,
        ),
    ),
  );
  let freeDiskBytes: number | null = null;
  if (info.DockerRootDir && isLocalEngine(endpoint)) {
    const disk = await statfs(info.DockerRootDir).catch(() => null);
    if (disk) freeDiskBytes = disk.bavail * disk.bsize;
  }
  return {
    memoryBytes: info.MemTotal ?? 0,
    reservedMemoryBytes: reserved.reduce((sum, bytes) => sum + bytes, 0),
    imagesHeld: info.Images ?? 0,
    environmentImageHashes: [
      ...new Set(
        environmentImages
          .map((image) => image.Labels?.[LABEL_CONTEXT_HASH])
          .filter((hash): hash is string => Boolean(hash)),
      ),
    ],
    freeDiskBytes,
  };
}
