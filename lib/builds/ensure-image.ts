import type { WorkerContext } from "../worker-runtime/worker-context";
import { buildImageForRow, type BuiltImage } from "./build-image-for-row";
import { revisionBuildContext, type RevisionForBuild } from "./revision-build-context";
import { logFailure } from "../errors/log-failure";

// Two runs of one task on one worker need the same image: the second waits for the first's build.
const inFlight = new Map<string, Promise<BuiltImage>>();

async function recordReuse(ctx: WorkerContext, revisionId: string, context: ReturnType<typeof revisionBuildContext>, imageId: string): Promise<BuiltImage> {
  const previous = await ctx.db.build.findFirst({
    where: { contextHash: context.contextHash, status: "SUCCEEDED", imageId },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  if (previous) return { buildId: previous.id, tag: context.tag, imageId, cacheHit: true };
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
      log: `Image ${context.tag} already on this Docker host; reused.\n`,
    },
  });
  return { buildId: build.id, tag: context.tag, imageId, cacheHit: true };
}

async function buildInline(ctx: WorkerContext, revisionId: string, revision: RevisionForBuild, context: ReturnType<typeof revisionBuildContext>, requestedById: string | null) {
  const now = new Date();
  const build = await ctx.db.build.create({
    data: { revisionId, status: "RUNNING", contextHash: context.contextHash, imageTag: context.tag, workerId: ctx.workerId, heartbeatAt: now, startedAt: now, attempts: 1, requestedById },
  });
  // the shared build must outlive a cancel of any one run waiting on it, so it only stops on shutdown
  const heartbeat = setInterval(() => {
    void ctx.db.build
      .updateMany({ where: { id: build.id, status: "RUNNING", workerId: ctx.workerId }, data: { heartbeatAt: new Date() } })
      .catch(logFailure(`renewing the lease of build ${build.id}`));
  }, ctx.config.heartbeatMs);
  try {
    return await buildImageForRow(ctx, build.id, context, { signal: ctx.shutdownSignal, memoryMb: revision.environment.memoryMb, cpus: revision.environment.cpus });
  } catch (error) {
    await ctx.db.build.updateMany({
      where: { id: build.id, status: "RUNNING", workerId: ctx.workerId },
      data: { status: "FAILED", errorMessage: error instanceof Error ? error.message : String(error), finishedAt: new Date() },
    });
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * The image for a revision on this worker's Docker host, built inline (and recorded as a
 * Build) when missing. Keyed by the build context's hash, so an eval-script-only edit —
 * a new revision with the same Dockerfile and files — reuses the image.
 */
export async function ensureImage(
  ctx: WorkerContext,
  revision: RevisionForBuild & { id: string; contextHash: string | null },
  options: { requestedById?: string | null } = {},
): Promise<BuiltImage> {
  const context = revisionBuildContext(revision);
  if (revision.contextHash !== context.contextHash) {
    await ctx.db.environmentRevision.update({ where: { id: revision.id }, data: { contextHash: context.contextHash } });
  }
  const existing = await ctx.docker.imageInfo(context.tag);
  if (existing) return recordReuse(ctx, revision.id, context, existing.id);

  const key = `${ctx.docker.endpoint}|${context.tag}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = buildInline(ctx, revision.id, revision, context, options.requestedById ?? null).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}
