import path from "node:path";
import type { Readable } from "node:stream";
import { extract } from "tar-stream";
import type { ImageFile, ReadImageFilesOptions } from "./docker-engine";
import { containerAlreadyGone, statusCodeOf } from "./docker-errors";
import type { EngineConnection } from "./engine-connection";
import { imageFacts } from "./engine-inventory";
import { workTreeOf } from "./container-sandbox";
import { logFailure } from "../errors/log-failure";

// Reading files out of an image without running anything in it: a container is created (never
// started, no network) only so the engine's archive endpoint can read its filesystem; each
// path is one getArchive, read as a tar of one entry, and the container is removed after.

/** A path inside the work tree, or null when it would leave it (an absolute or `..` path from a patch). */
function insideWorkTree(workTree: string, relative: string): string | null {
  const joined = path.posix.normalize(path.posix.join(workTree || "/", relative));
  const root = workTree || "/";
  return joined.startsWith(root === "/" ? "/" : `${root}/`) && !relative.startsWith("/") ? joined : null;
}

/** The single regular file a getArchive tar holds, or why it is not one; bigger than maxBytes is not read. */
function fileOfArchive(archive: Readable, maxBytes: number): Promise<ImageFile> {
  return new Promise((resolve, reject) => {
    const reader = extract();
    let result: ImageFile | null = null;
    reader.on("entry", (header, stream, next) => {
      if (result) {
        stream.resume();
        stream.on("end", next);
        return;
      }
      if (header.type !== "file") {
        result = {
          skipped:
            header.type === "directory"
              ? "a directory in the image"
              : `not a regular file in the image (${header.type})`,
        };
        stream.resume();
        stream.on("end", next);
        return;
      }
      if ((header.size ?? 0) > maxBytes) {
        result = { skipped: `larger than ${maxBytes} bytes (${header.size} bytes)` };
        stream.resume();
        stream.on("end", next);
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on("end", () => {
        result = { content: Buffer.concat(chunks) };
        next();
      });
    });
    reader.on("finish", () => resolve(result ?? { skipped: "the image's archive of it was empty" }));
    reader.on("error", reject);
    archive.on("error", reject);
    archive.pipe(reader as unknown as NodeJS.WritableStream);
  });
}

export async function readImageFiles(
  engine: EngineConnection,
  options: ReadImageFilesOptions,
): Promise<Record<string, ImageFile>> {
  const workTree = workTreeOf(await imageFacts(engine, options.image));
  const container = await engine.call(() =>
    engine.docker.createContainer({
      Image: options.image,
      Cmd: ["/bin/true"],
      Entrypoint: [],
      Labels: options.labels,
      NetworkDisabled: true,
      HostConfig: { NetworkMode: "none", AutoRemove: false },
    }),
  );
  const files: Record<string, ImageFile> = {};
  try {
    for (const relative of options.paths) {
      const absolute = insideWorkTree(workTree, relative);
      if (!absolute) {
        files[relative] = { skipped: "the path leaves the repository's work tree" };
        continue;
      }
      const archive = await engine
        .call(() => container.getArchive({ path: absolute }))
        .catch((error) => (statusCodeOf(error) === 404 ? null : Promise.reject(error)));
      files[relative] = archive
        ? await fileOfArchive(archive as unknown as Readable, options.maxBytes)
        : { skipped: "not in the image at the base commit" };
    }
    return files;
  } finally {
    await container
      .remove({ force: true, v: true })
      .catch(logFailure(`removing container ${container.id}`, { expected: containerAlreadyGone }));
  }
}
