import { createHash } from "node:crypto";
import type { WorkerContext } from "../worker-runtime/worker-context";
import { decideRegistry } from "../environments/image-reference";
import { pullFromRegistry, pushToRegistry } from "./image-travel";
import type { BuiltImage } from "./build-image-for-row";

// An IMAGE environment runs a published image, pinned by digest. The first pull (from a
// registry on the IMAGE_REGISTRIES allow-list) pins the digest and the image id; after that
// the engine uses the pinned image under a name derived from the digest, gets it from the
// pool's registry when another engine pulled it, and refuses a source whose digest changed.

/** An image source that cannot give this run its image: not an outage, the run fails with this sentence. */
export class ImageSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImageSourceError";
  }
}

export type PublishedEnvironment = {
  id: string;
  key: string;
  imageReference: string | null;
  imageDigest: string | null;
  imageId: string | null;
};

/** The engine's name for a pinned image: one per digest, the same on every engine of the pool. */
export const pinnedImageName = (pin: string) =>
  `swe-curator/published:${createHash("sha256").update(pin).digest("hex").slice(0, 40)}`;

type Obtained = { tag: string; imageId: string; digest: string; log: string };

async function recordPublished(ctx: WorkerContext, revisionId: string, obtained: Obtained): Promise<BuiltImage> {
  const now = new Date();
  const build = await ctx.db.build.create({
    data: {
      revisionId,
      status: "SUCCEEDED",
      cacheHit: true,
      contextHash: `published:${obtained.digest}`,
      imageTag: obtained.tag,
      imageId: obtained.imageId,
      durationMs: 0,
      workerId: ctx.workerId,
      startedAt: now,
      finishedAt: now,
      log: obtained.log,
    },
  });
  return { buildId: build.id, tag: obtained.tag, imageId: obtained.imageId, cacheHit: true };
}

/** The pinned image when this engine has it, or gets it from the pool's registry; null otherwise. */
async function pinnedLocally(
  ctx: WorkerContext,
  environment: PublishedEnvironment,
  signal: AbortSignal,
): Promise<Obtained | null> {
  if (!environment.imageDigest || !environment.imageId) return null;
  const tag = pinnedImageName(environment.imageDigest);
  const here = await ctx.docker.imageInfo(tag);
  if (here?.id === environment.imageId)
    return {
      tag,
      imageId: here.id,
      digest: environment.imageDigest,
      log: `Image ${environment.imageReference}@${environment.imageDigest} already on this Docker host; reused.\n`,
    };
  const seconds = await pullFromRegistry(ctx, tag, signal);
  if (seconds === null) return null;
  const pulled = await ctx.docker.imageInfo(tag);
  if (pulled?.id === environment.imageId) {
    return {
      tag,
      imageId: pulled.id,
      digest: environment.imageDigest,
      log: `Pulled ${environment.imageReference}@${environment.imageDigest} from the pool's registry at ${ctx.config.registryHost} in ${seconds.toFixed(1)} s.\n`,
    };
  }
  // the pool's copy is not the pinned image: never run it
  await ctx.docker.untagImage(tag);
  return null;
}

/** Pins the digest on the first pull; a later pull at another digest is refused. */
async function pinOrCompare(
  ctx: WorkerContext,
  environment: PublishedEnvironment,
  pulled: { digest: string; imageId: string },
  taskName: string,
): Promise<void> {
  const { count } = await ctx.db.environment.updateMany({
    where: { id: environment.id, imageDigest: null },
    data: { imageDigest: pulled.digest, imageId: pulled.imageId },
  });
  if (count) return;
  const pinned = await ctx.db.environment.findUniqueOrThrow({
    where: { id: environment.id },
    select: { imageDigest: true },
  });
  if (pinned.imageDigest === pulled.digest) return;
  throw new ImageSourceError(
    `Task ${taskName}: the image ${environment.imageReference} now has digest ${pulled.digest}, but environment ${environment.key} was pinned to ${pinned.imageDigest} on its first pull, so it was not run; ` +
      `if the new image is intended, re-pin the environment's image on its page, else restore the published image`,
  );
}

// both controls of a task start together: one pull per image and engine, the other run waits for it
const inFlight = new Map<string, Promise<BuiltImage>>();

/**
 * The published image of an IMAGE environment on this worker's Docker host, by its pinned
 * digest: already here, from the pool's registry, or pulled from its (allowed) registry.
 */
export function ensurePublishedImage(
  ctx: WorkerContext,
  revisionId: string,
  environment: PublishedEnvironment,
  taskName: string,
): Promise<BuiltImage> {
  const key = `${ctx.docker.endpoint}|${environment.id}|${environment.imageReference}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = obtainPublishedImage(ctx, revisionId, environment, taskName).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

async function obtainPublishedImage(
  ctx: WorkerContext,
  revisionId: string,
  environment: PublishedEnvironment,
  taskName: string,
): Promise<BuiltImage> {
  const reference = environment.imageReference ?? "";
  const decision = decideRegistry(
    reference,
    new Map(ctx.config.imageRegistries.map((registry) => [registry.registry, registry])),
  );
  if (!decision.allowed) throw new ImageSourceError(`Task ${taskName} was not run: ${decision.reason}`);
  const signal = ctx.shutdownSignal;
  const local = await pinnedLocally(ctx, environment, signal);
  if (local) return recordPublished(ctx, revisionId, local);

  const started = Date.now();
  let pulled: { imageId: string; digest: string | null };
  try {
    pulled = await ctx.docker.pullPublishedImage(decision.pullReference, {
      credentials: decision.registry.credentials,
      signal,
    });
  } catch (error) {
    if ((error as Error).name !== "PublishedPullError") throw error;
    throw new ImageSourceError(
      `Task ${taskName} was not run: ${(error as Error).message}; ${adviceFor(error as Error & { why?: string })}`,
    );
  }
  // a registry that gives no digest (an image loaded by hand) is pinned by its content: the image id
  const digest = pulled.digest ?? pulled.imageId;
  try {
    await pinOrCompare(ctx, environment, { digest, imageId: pulled.imageId }, taskName);
  } catch (error) {
    await ctx.docker.untagImage(decision.pullReference);
    throw error;
  }
  const tag = pinnedImageName(digest);
  await ctx.docker.tagImage(pulled.imageId, tag);
  if (decision.pullReference !== tag) await ctx.docker.untagImage(decision.pullReference);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const pushed = await pushToRegistry(ctx, tag, signal);
  const via = decision.registry.pullFrom === decision.image.registry ? "" : ` (through ${decision.registry.pullFrom})`;
  const log = `Pulled ${reference}${via} at ${digest} in ${seconds} s; runs as ${tag}.\n${pushed ? `${pushed}\n` : ""}`;
  return recordPublished(ctx, revisionId, { tag, imageId: pulled.imageId, digest, log });
}

function adviceFor(error: { why?: string }): string {
  if (error.why === "unauthorized")
    return "an admin sets credentials for that registry in IMAGE_REGISTRY_CREDENTIALS (host=user:password)";
  if (error.why === "not-found")
    return "check the image name, or copy the image into the registry (or mirror) IMAGE_REGISTRIES names";
  return "nothing was kept; validate again once the registry answers in full";
}
