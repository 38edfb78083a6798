import type { ImportFormat } from "../db/client";
import type { Detection } from "./formats/detect-format";
import { formatDeclaration } from "./formats/registry";
import type { ImportContext } from "./import-context";
import type { RecordImporter } from "./import-records";
import { importArchive } from "./documents/import-archive";
import { generatorChooser } from "./user-generator";

// Which importer handles which detected format: the one its folder declares (formats/<format>/index.ts,
// listed in formats/registry.ts). Record formats share the batch loop in import-records.ts;
// documents, logs and archives run their own. The files they read, by extension, are listed in
// importable-files.ts (browser-safe: the upload picker's accept list).

export type DocumentImporter = { format: ImportFormat; run(ctx: ImportContext): Promise<void> };

export function recordImporterFor(format: ImportFormat, ctx: ImportContext): RecordImporter<unknown> {
  const records = formatDeclaration(format)?.records;
  if (!records) throw new Error(`${format} files are not made of independent records`);
  // what the user said (--generator, the form) wins over the model a record names
  return records(ctx, generatorChooser(ctx.run, ctx.options.generator)) as RecordImporter<unknown>;
}

export function documentImporterFor(
  detection: Exclude<Detection, { kind: "records" } | { kind: "unknown" } | { kind: "parquet" }>,
): DocumentImporter {
  // a folder's layout decides its format once it has been read (folder-layout.ts)
  if (detection.kind === "archive") return { format: "UNKNOWN", run: (ctx) => importArchive(ctx, detection.archive) };
  const declaration = formatDeclaration(detection.format);
  const run = detection.kind === "log" ? declaration?.text : declaration?.document;
  if (!run) throw new Error(`no ${detection.kind} importer for ${detection.format}`);
  return { format: detection.format, run };
}
