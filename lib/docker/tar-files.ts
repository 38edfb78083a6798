import { pack } from "tar-stream";
import type { Readable } from "node:stream";
import type { FileTree } from "./docker-engine";

/** A tar stream of in-memory files (build contexts, patches put into containers). */
export function tarFiles(files: FileTree): Readable {
  const archive = pack();
  for (const [name, entry] of Object.entries(files)) {
    const { content, mode } =
      typeof entry === "string" || Buffer.isBuffer(entry) ? { content: entry, mode: 0o644 } : entry;
    archive.entry({ name: name.replace(/^\/+/, ""), mode, mtime: new Date(0) }, content);
  }
  archive.finalize();
  return archive as unknown as Readable;
}
