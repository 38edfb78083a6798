import type { ImportContext } from "../import-context";
import { extractArchive } from "../read/extract-archive";
import path from "node:path";
import { importFolder } from "./import-directory";

/** An archive is unpacked to a temporary folder and imported as a folder; the folder is removed after. */
export async function importArchive(ctx: ImportContext, kind: "zip" | "tar" | "tar.gz" | "directory") {
  // a folder on disk is read with its own path (…/run_evaluation/<run_id>/ names the run); an archive with its entries' paths
  if (kind === "directory")
    return importFolder(ctx, ctx.filePath, path.resolve(ctx.filePath).split(path.sep).filter(Boolean));
  const { root, cleanup } = await extractArchive(ctx.filePath, kind);
  try {
    await importFolder(ctx, root, []);
  } finally {
    await cleanup();
  }
}
