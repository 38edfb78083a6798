import type { ServerConfig } from "../config/server-config";

// Published images: how a dataset names one, which registry a name points at, and whether an
// admin allowed that registry (IMAGE_REGISTRIES). Pure functions, so the import, the API's
// refusal and the worker's pull all decide alike.

export type ImageReference = { registry: string; repository: string; tag: string };

/** Docker Hub as Docker names it in a reference; `docker.io` in the allow-list. */
export const DOCKER_HUB = "docker.io";

/**
 * A reference split as Docker splits it: the first path part is a registry when it has a dot or
 * a port or is `localhost`, else the image is on Docker Hub (one-part names under `library/`).
 * A digest (`@sha256:…`) is dropped: we pin digests ourselves, on the first pull.
 */
export function parseImageReference(reference: string): ImageReference | null {
  const trimmed = reference.trim().split("@")[0];
  if (!trimmed || /\s/.test(trimmed)) return null;
  const parts = trimmed.split("/");
  const first = parts[0];
  const hasRegistry = parts.length > 1 && (first.includes(".") || first.includes(":") || first === "localhost");
  const registry = hasRegistry
    ? first === "index.docker.io" || first === "registry-1.docker.io"
      ? DOCKER_HUB
      : first
    : DOCKER_HUB;
  let path = (hasRegistry ? parts.slice(1) : parts).join("/");
  const colon = path.lastIndexOf(":");
  const tag = colon > path.lastIndexOf("/") ? path.slice(colon + 1) : "latest";
  if (colon > path.lastIndexOf("/")) path = path.slice(0, colon);
  if (
    !path ||
    !/^[a-z0-9]+(?:[._-]+[a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-]+[a-z0-9]+)*)*$/.test(path) ||
    !/^\w[\w.-]{0,127}$/.test(tag)
  )
    return null;
  if (registry === DOCKER_HUB && !path.includes("/")) path = `library/${path}`;
  return { registry, repository: path, tag };
}

export const formatImageReference = (image: ImageReference) =>
  `${image.registry === DOCKER_HUB ? "" : `${image.registry}/`}${image.repository}:${image.tag}`;

/** Where the worker pulls an allowed registry's images from, and the credentials it sends (never logged, never answered). */
export type AllowedRegistry = {
  registry: string;
  pullFrom: string;
  credentials: { username: string; password: string } | null;
};

export const IMAGE_REGISTRIES_SETTING = "IMAGE_REGISTRIES";
export const IMAGE_REGISTRY_CREDENTIALS_SETTING = "IMAGE_REGISTRY_CREDENTIALS";

/** The allow-list from the configuration: registry → where to pull from and with which credentials. */
export function allowedRegistries(
  config: Pick<ServerConfig, "IMAGE_REGISTRIES" | "IMAGE_REGISTRY_CREDENTIALS">,
): Map<string, AllowedRegistry> {
  const credentials = new Map<string, AllowedRegistry["credentials"]>();
  for (const entry of config.IMAGE_REGISTRY_CREDENTIALS ?? []) {
    const equals = entry.indexOf("=");
    const secret = entry.slice(equals + 1);
    const colon = secret.indexOf(":");
    credentials.set(entry.slice(0, equals), { username: secret.slice(0, colon), password: secret.slice(colon + 1) });
  }
  const registries = new Map<string, AllowedRegistry>();
  for (const entry of config.IMAGE_REGISTRIES ?? []) {
    const [registry, mirror] = entry.split("=");
    const pullFrom = mirror ?? registry;
    registries.set(registry, {
      registry,
      pullFrom,
      credentials: credentials.get(registry) ?? credentials.get(pullFrom) ?? null,
    });
  }
  return registries;
}

export type RegistryDecision =
  | { allowed: true; image: ImageReference; registry: AllowedRegistry; pullReference: string }
  | { allowed: false; reason: string };

/**
 * Whether an image may be pulled, decided before anything is fetched: its registry must be on
 * the allow-list. The refusal names the image, the registry and the setting to change.
 */
export function decideRegistry(reference: string, registries: Map<string, AllowedRegistry>): RegistryDecision {
  const image = parseImageReference(reference);
  if (!image)
    return {
      allowed: false,
      reason: `"${reference}" is not an image reference Docker understands ([registry/]repository[:tag]); correct the image name`,
    };
  const registry = registries.get(image.registry);
  if (!registry) {
    return {
      allowed: false,
      reason: `the image ${reference} is in the registry ${image.registry}, which ${IMAGE_REGISTRIES_SETTING} does not list; an admin adds ${image.registry} to ${IMAGE_REGISTRIES_SETTING} (optionally =a mirror) to allow it`,
    };
  }
  const path = registry.pullFrom === DOCKER_HUB ? image.repository.replace(/^library\//, "") : image.repository;
  return {
    allowed: true,
    image,
    registry,
    pullReference: `${registry.pullFrom === DOCKER_HUB ? "" : `${registry.pullFrom}/`}${path}:${image.tag}`,
  };
}
