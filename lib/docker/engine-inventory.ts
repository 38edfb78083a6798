import type { ImageInfo, LabelledContainer } from "./docker-engine";
import { containerAlreadyGone, statusCodeOf } from "./docker-errors";
import { LABEL_MANAGED } from "./container-labels";
import type { ImageFacts } from "./container-sandbox";
import type { EngineConnection } from "./engine-connection";

// What is on the engine, and tidying it: images by tag, our labelled containers, and the
// dangling images we built.

export async function imageInfo(engine: EngineConnection, tag: string): Promise<ImageInfo | null> {
  try {
    const info = await engine.call(() => engine.docker.getImage(tag).inspect());
    return { id: info.Id, createdAt: new Date(info.Created), sizeBytes: info.Size };
  } catch (error) {
    if (statusCodeOf(error) === 404) return null;
    throw error;
  }
}

/** An image's ENV and ONBUILD triggers, which a build FROM it inherits and runs; null when the engine lacks it. */
export async function imageConfig(
  engine: EngineConnection,
  reference: string,
): Promise<{ env: string[]; onBuild: string[] } | null> {
  try {
    const info = await engine.call(() => engine.docker.getImage(reference).inspect());
    return { env: info.Config?.Env ?? [], onBuild: info.Config?.OnBuild ?? [] };
  } catch (error) {
    if (statusCodeOf(error) === 404) return null;
    throw error;
  }
}

/** What the sandbox needs to know of an image: its work tree, user and labels. */
export async function imageFacts(engine: EngineConnection, image: string): Promise<ImageFacts> {
  const info = await engine.call(() => engine.docker.getImage(image).inspect());
  return {
    workingDir: info.Config?.WorkingDir ?? "",
    user: info.Config?.User ?? "",
    labels: info.Config?.Labels ?? {},
  };
}

export async function listLabelledContainers(engine: EngineConnection): Promise<LabelledContainer[]> {
  const containers = await engine.call(() =>
    engine.docker.listContainers({ all: true, filters: { label: [`${LABEL_MANAGED}=true`] } }),
  );
  return containers.map((c) => ({
    id: c.Id,
    labels: c.Labels ?? {},
    state: c.State,
    createdAt: new Date(c.Created * 1000),
  }));
}

export async function removeContainer(engine: EngineConnection, id: string): Promise<void> {
  try {
    await engine.call(() => engine.docker.getContainer(id).remove({ force: true }));
  } catch (error) {
    // gone already, or being removed by another remover (the reaper before a retry and the housekeeping prune race)
    if (!containerAlreadyGone(error)) throw error;
  }
}

export async function pruneDanglingImages(
  engine: EngineConnection,
  budgetBytes: number,
  options: { alsoLabelled?: string } = {},
) {
  // only images we built: a user's own dangling images on the same engine are not ours to remove
  const label = [`${LABEL_MANAGED}=true`, ...(options.alsoLabelled ? [options.alsoLabelled] : [])];
  const images = await engine.call(() => engine.docker.listImages({ filters: { dangling: ["true"], label } }));
  let total = images.reduce((sum, image) => sum + image.Size, 0);
  let removed = 0;
  let freedBytes = 0;
  for (const image of [...images].sort((a, b) => a.Created - b.Created)) {
    if (total <= budgetBytes) break;
    try {
      await engine.call(() => engine.docker.getImage(image.Id).remove());
      total -= image.Size;
      freedBytes += image.Size;
      removed++;
    } catch (error) {
      // an image a container still uses cannot go; the next prune will try again
      if (statusCodeOf(error) !== 409 && statusCodeOf(error) !== 404) throw error;
    }
  }
  return { removed, freedBytes };
}
