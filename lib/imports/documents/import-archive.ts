import type { ImportContext } from "../import-context";
import { extractArchive } from "../read/extract-archive";
import { importDirectory } from "./import-directory";

/** An archive is unpacked to a temporary folder and imported as a folder; the folder is removed after. */
export async function importArchive(ctx: ImportContext, kind: "zip" | "tar" | "tar.gz" | "directory") {
  if (kind === "directory") return importDirectory(ctx, ctx.filePath);
  const { root, cleanup } = await extractArchive(ctx.filePath, kind);
  try {
    await importDirectory(ctx, root);
  } finally {
    await cleanup();
  }
}
