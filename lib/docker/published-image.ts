import type Docker from "dockerode";
import { statusCodeOf } from "./docker-errors";
import { followProgress, RegistryUnavailableError, splitTag, unreachableRegistry } from "./image-transfer";

// Pulling a published image (a dataset's, from a registry an admin allowed) and reading the
// digest it came with. The caller decided the registry is allowed and names the credentials;
// they go to the engine in the auth header only, never into an error or a log line.

export type RegistryCredentials = { username: string; password: string };

/** A pull the registry refused (401), that it does not have (404), or that broke off: not an outage, the run fails with this. */
export class PublishedPullError extends Error {
  constructor(
    readonly why: "unauthorized" | "not-found" | "failed",
    message: string,
  ) {
    super(message);
    this.name = "PublishedPullError";
  }
}

export type PulledImage = { imageId: string; digest: string | null };

const repositoryOf = (reference: string) => splitTag(reference).repo;

/** The digest the registry gave this pull: the RepoDigest of the repository pulled from. */
function digestOf(repoDigests: string[] | undefined, reference: string): string | null {
  const repository = repositoryOf(reference);
  const bare = repository.replace(/^(docker\.io\/)?(library\/)?/, "");
  const match = (repoDigests ?? []).find((entry) => {
    const name = entry.split("@")[0];
    return name === repository || name.replace(/^(docker\.io\/)?(library\/)?/, "") === bare;
  });
  return match ? match.split("@")[1] : null;
}

function pullError(host: string, reference: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split("\n")[0].slice(0, 300);
  if (unreachableRegistry(message, error)) return new RegistryUnavailableError(host, first);
  if (
    statusCodeOf(error) === 401 ||
    /unauthorized|authentication required|denied|no basic auth credentials/i.test(message)
  ) {
    return new PublishedPullError(
      "unauthorized",
      `the registry at ${host} refused to hand out ${reference} (401: unauthorized)`,
    );
  }
  if (statusCodeOf(error) === 404 || /manifest unknown|not found|does not exist/i.test(message)) {
    return new PublishedPullError("not-found", `the registry at ${host} has no image ${reference} (404)`);
  }
  return new PublishedPullError("failed", `pulling ${reference} from ${host} broke off: ${first}`);
}

/** Pulls `reference` (a host the engine can reach) and answers the image's id and the digest it was pulled at. */
export async function pullPublishedImage(
  docker: Docker,
  reference: string,
  options: { credentials?: RegistryCredentials | null; signal?: AbortSignal },
): Promise<PulledImage> {
  const host =
    reference.includes("/") && /[.:]|^localhost$/.test(reference.split("/")[0]) ? reference.split("/")[0] : "docker.io";
  const authconfig = options.credentials
    ? { username: options.credentials.username, password: options.credentials.password, serveraddress: host }
    : {};
  // another worker on this engine may drop the pulled name between our pull and our read: pull again
  for (let attempt = 1; ; attempt++) {
    try {
      const stream = (await docker.pull(reference, { authconfig })) as unknown as NodeJS.ReadableStream;
      await followProgress(docker, stream, options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw pullError(host, reference, error);
    }
    try {
      const inspected = await docker.getImage(reference).inspect();
      return { imageId: inspected.Id, digest: digestOf(inspected.RepoDigests, reference) };
    } catch (error) {
      if (statusCodeOf(error) !== 404 || attempt >= 3) throw error;
    }
  }
}

/** Gives an image a second name (the engine then holds it under both). */
export async function tagImage(docker: Docker, image: string, name: string): Promise<void> {
  const { repo, tag } = splitTag(name);
  await docker.getImage(image).tag({ repo, tag });
}

/** Drops one name of an image, keeping the layers when another name still holds them. */
export async function untagImage(docker: Docker, name: string): Promise<void> {
  await docker
    .getImage(name)
    .remove({ noprune: true })
    .catch((error: unknown) => {
      if (statusCodeOf(error) !== 404) throw error;
    });
}
