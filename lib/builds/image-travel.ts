import { sleepUntilAborted as sleep } from "@/lib/async/sleep-until-aborted";
import type { Db } from "../db/client";
import { reviewDockerfile } from "../docker/dockerfile-policy";
import type { WorkerContext } from "../worker-runtime/worker-context";
import type { ResolvedBuildContext } from "./revision-build-context";

// On a pool of engines an image is built once and travels through the registry. These are
// the steps ensureImage and the build take when a registry is configured; with none, each
// engine builds for itself from the same revision (same content hash, same image).

// node's own abortable timer: it drops its abort listener when it fires, so a long wait
// on a long-lived signal (a worker's shutdown, a browser's request) does not pile them up

/** Pulls the image from the pool's registry; the seconds it took, or null when the registry lacks it. */
export async function pullFromRegistry(ctx: WorkerContext, tag: string, signal: AbortSignal): Promise<number | null> {
  if (!ctx.config.registryHost) return null;
  const started = Date.now();
  const pulled = await ctx.docker.pullImage(tag, ctx.config.registryHost, signal);
  return pulled ? (Date.now() - started) / 1000 : null;
}

/**
 * Pulls the images a recipe starts FROM that this engine lacks (the base image, say) from
 * the pool's registry, so a fresh engine can build. Builds themselves still never pull.
 */
export async function pullMissingBaseImages(
  ctx: WorkerContext,
  context: ResolvedBuildContext,
  signal: AbortSignal,
): Promise<string[]> {
  if (!ctx.config.registryHost) return [];
  const pulled: string[] = [];
  for (const { image } of (await reviewDockerfile(context.dockerfile, context.buildArgs)).requiredImages) {
    if (await ctx.docker.imageInfo(image)) continue;
    if (await ctx.docker.pullImage(image, ctx.config.registryHost, signal)) pulled.push(image);
  }
  return pulled;
}

/** Pushes a freshly built image so the pool's other engines pull instead of building; a sentence for the build log. */
export async function pushToRegistry(ctx: WorkerContext, tag: string, signal: AbortSignal): Promise<string | null> {
  if (!ctx.config.registryHost) return null;
  const started = Date.now();
  try {
    await ctx.docker.pushImage(tag, ctx.config.registryHost, signal);
    return `Pushed ${tag} to the registry at ${ctx.config.registryHost} in ${((Date.now() - started) / 1000).toFixed(1)} s.`;
  } catch (error) {
    // the image is good here; the pool's other engines build it themselves meanwhile
    return `Could not push ${tag} to the registry at ${ctx.config.registryHost}: ${(error as Error).message}. Other engines will build it themselves.`;
  }
}

type PeerBuild = { id: string; worker_id: string | null };

/**
 * Claims the right to build an image across the pool: under a lock on its hash, either a
 * live build of it elsewhere is found (returned, to wait for) or our RUNNING Build row is
 * created (via createBuild) so that others wait for us.
 */
export async function claimPoolBuild<T>(
  db: Db,
  context: ResolvedBuildContext,
  leaseMs: number,
  createBuild: (tx: Db) => Promise<T>,
): Promise<{ peer: PeerBuild } | { ours: T }> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`select pg_advisory_xact_lock(hashtext(${`image:${context.contextHash}`}))`;
    const [peer] = await tx.$queryRaw<PeerBuild[]>`
      select id, worker_id from builds
      where context_hash = ${context.contextHash} and status = 'RUNNING' and heartbeat_at > now() - (${leaseMs}::int * interval '1 millisecond')
      limit 1`;
    if (peer) return { peer };
    return { ours: await createBuild(tx as unknown as Db) };
  });
}

/** Waits for another engine's build of the same image to end. */
export async function waitForPeerBuild(
  ctx: WorkerContext,
  buildId: string,
  signal: AbortSignal,
): Promise<"SUCCEEDED" | "ENDED"> {
  for (;;) {
    const build = await ctx.db.build.findUnique({
      where: { id: buildId },
      select: { status: true, heartbeatAt: true },
    });
    if (!build || build.status === "FAILED" || build.status === "CANCELLED") return "ENDED";
    if (build.status === "SUCCEEDED") return "SUCCEEDED";
    // a builder that died mid-build: stop waiting once its lease has run out
    if (
      build.status === "RUNNING" &&
      build.heartbeatAt &&
      Date.now() - build.heartbeatAt.getTime() > ctx.config.leaseMs
    )
      return "ENDED";
    if (signal.aborted) throw signal.reason;
    await sleep(1_000, signal);
  }
}
