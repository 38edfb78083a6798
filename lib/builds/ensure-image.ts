import type { Db } from "../db/client";
import type { WorkerContext } from "../worker-runtime/worker-context";
import { buildImageForRow, type BuiltImage } from "./build-image-for-row";
import { claimPoolBuild, pullFromRegistry, waitForPeerBuild } from "./image-travel";
import { revisionBuildContext, type ResolvedBuildContext, type RevisionForBuild } from "./revision-build-context";
import { logFailure } from "../errors/log-failure";
import type { ImageSource } from "../db/client";
import { ensurePublishedImage, ImageSourceError, type PublishedEnvironment } from "./ensure-published-image";
import { specBuildContext } from "./spec-build-context";
import type { SpecSource } from "../environments/spec-instance";

// Two runs of one task on one worker need the same image: the second waits for the first's build.
const inFlight = new Map<string, Promise<BuiltImage>>();

type Obtained = { revisionId: string; context: ResolvedBuildContext; imageId: string; log: string };

/** A SUCCEEDED Build row for an image this engine got without building it (already here, or pulled). */
async function recordObtained(
  ctx: WorkerContext,
  { revisionId, context, imageId, log }: Obtained,
): Promise<BuiltImage> {
  const now = new Date();
  const build = await ctx.db.build.create({
    data: {
      revisionId,
      status: "SUCCEEDED",
      cacheHit: true,
      contextHash: context.contextHash,
      imageTag: context.tag,
      imageId,
      durationMs: 0,
      workerId: ctx.workerId,
      startedAt: now,
      finishedAt: now,
      log,
    },
  });
  return { buildId: build.id, tag: context.tag, imageId, cacheHit: true };
}

async function recordReuse(
  ctx: WorkerContext,
  revisionId: string,
  context: ResolvedBuildContext,
  imageId: string,
): Promise<BuiltImage> {
  const previous = await ctx.db.build.findFirst({
    where: { contextHash: context.contextHash, status: "SUCCEEDED", imageId },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  if (previous) return { buildId: previous.id, tag: context.tag, imageId, cacheHit: true };
  return recordObtained(ctx, {
    revisionId,
    context,
    imageId,
    log: `Image ${context.tag} already on this Docker host; reused.\n`,
  });
}

const createRunningBuild = (
  db: Db,
  ctx: WorkerContext,
  revisionId: string,
  context: ResolvedBuildContext,
  requestedById: string | null,
) => {
  const now = new Date();
  return db.build.create({
    data: {
      revisionId,
      status: "RUNNING",
      contextHash: context.contextHash,
      imageTag: context.tag,
      workerId: ctx.workerId,
      heartbeatAt: now,
      startedAt: now,
      attempts: 1,
      requestedById,
    },
    select: { id: true },
  });
};

async function buildOnRow(
  ctx: WorkerContext,
  buildId: string,
  revision: RevisionForBuild,
  context: ResolvedBuildContext,
) {
  // the shared build must outlive a cancel of any one run waiting on it, so it only stops on shutdown
  const heartbeat = setInterval(() => {
    void ctx.db.build
      .updateMany({
        where: { id: buildId, status: "RUNNING", workerId: ctx.workerId },
        data: { heartbeatAt: new Date() },
      })
      .catch(logFailure(`renewing the lease of build ${buildId}`));
  }, ctx.config.heartbeatMs);
  try {
    return await buildImageForRow(ctx, buildId, context, {
      signal: ctx.shutdownSignal,
      memoryMb: revision.environment.memoryMb,
      cpus: revision.environment.cpus,
    });
  } catch (error) {
    await ctx.db.build.updateMany({
      where: { id: buildId, status: "RUNNING", workerId: ctx.workerId },
      data: {
        status: "FAILED",
        errorMessage: error instanceof Error ? error.message : String(error),
        finishedAt: new Date(),
      },
    });
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}

async function pulledImage(
  ctx: WorkerContext,
  revisionId: string,
  context: ResolvedBuildContext,
): Promise<BuiltImage | null> {
  const seconds = await pullFromRegistry(ctx, context.tag, ctx.shutdownSignal);
  if (seconds === null) return null;
  const image = await ctx.docker.imageInfo(context.tag);
  if (!image) return null;
  return recordObtained(ctx, {
    revisionId,
    context,
    imageId: image.id,
    log: `Pulled ${context.tag} from the registry at ${ctx.config.registryHost} in ${seconds.toFixed(1)} s instead of building it.\n`,
  });
}

/**
 * Gets a missing image onto this engine: from the pool's registry when it has it; else by
 * building it here — unless another engine is building it right now, in which case this
 * one waits for that build and pulls its result. With no registry, it just builds.
 */
async function obtainImage(
  ctx: WorkerContext,
  revisionId: string,
  revision: RevisionForBuild,
  context: ResolvedBuildContext,
  requestedById: string | null,
): Promise<BuiltImage> {
  if (!ctx.config.registryHost)
    return buildOnRow(
      ctx,
      (await createRunningBuild(ctx.db, ctx, revisionId, context, requestedById)).id,
      revision,
      context,
    );
  for (;;) {
    const pulled = await pulledImage(ctx, revisionId, context);
    if (pulled) return pulled;
    const claim = await claimPoolBuild(ctx.db, context, ctx.config.leaseMs, (tx) =>
      createRunningBuild(tx, ctx, revisionId, context, requestedById),
    );
    if ("ours" in claim) return buildOnRow(ctx, claim.ours.id, revision, context);
    await waitForPeerBuild(ctx, claim.peer.id, ctx.shutdownSignal);
  }
}

/**
 * The image for a revision on this worker's Docker host: already here, pulled from the
 * pool's registry, or built inline (and recorded as a Build). Keyed by the build context's
 * hash, so an eval-script-only edit — a new revision with the same Dockerfile and files —
 * reuses the image.
 */
export async function ensureImage(
  ctx: WorkerContext,
  revision: RevisionForBuild & {
    id: string;
    contextHash: string | null;
    environment: Partial<PublishedEnvironment> & { imageSource?: ImageSource };
  },
  options: { requestedById?: string | null; taskName?: string; spec?: SpecSource } = {},
): Promise<BuiltImage> {
  const { environment } = revision;
  const taskName = options.taskName ?? "(unnamed)";
  if (environment.imageSource === "IMAGE")
    return ensurePublishedImage(ctx, revision.id, environment as PublishedEnvironment, taskName);
  if (environment.imageSource === "NONE")
    throw new ImageSourceError(
      `Task ${taskName} has no environment yet: use the dataset's image, generate one from the harness spec, or write a recipe`,
    );
  if (environment.imageSource === "SPEC" && !options.spec)
    throw new ImageSourceError(
      `Task ${taskName}: a spec environment is built from its task's row, which this build was not given`,
    );
  const context =
    environment.imageSource === "SPEC" ? specBuildContext(ctx, options.spec!) : revisionBuildContext(revision);
  if (environment.imageSource !== "SPEC" && revision.contextHash !== context.contextHash) {
    await ctx.db.environmentRevision.update({ where: { id: revision.id }, data: { contextHash: context.contextHash } });
  }
  const existing = await ctx.docker.imageInfo(context.tag);
  if (existing) return recordReuse(ctx, revision.id, context, existing.id);

  const key = `${ctx.docker.endpoint}|${context.tag}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = obtainImage(ctx, revision.id, revision, context, options.requestedById ?? null).finally(() =>
      inFlight.delete(key),
    );
    inFlight.set(key, pending);
  }
  return pending;
}
