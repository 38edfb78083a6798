import type { ImportFormat } from "../db/client";
import { AppError } from "../errors/app-error";
import type { Detection } from "./detect-format";
import type { ImportContext } from "./import-file";
import type { RecordImporter } from "./import-records";
import { sweBenchInstancesImporter } from "./formats/swe-bench-instances";
import { importSweAgentDocument } from "./documents/swe-agent-document";

// Which importer handles which detected format. Record formats share the batch loop in
// import-records.ts; document formats (one JSON document, a log, an archive) run their own.

export type DocumentImporter = { format: ImportFormat; run(ctx: ImportContext): Promise<void> };

export function recordImporterFor(format: ImportFormat, ctx: ImportContext): RecordImporter<unknown> {
  switch (format) {
    case "SWE_BENCH_INSTANCES":
      return sweBenchInstancesImporter(ctx.fileName, ctx.options.source) as RecordImporter<unknown>;
    default:
      throw new AppError("UNPROCESSABLE", `Importing ${format} records is not supported yet`);
  }
}

export function documentImporterFor(detection: Exclude<Detection, { kind: "records" } | { kind: "unknown" }>): DocumentImporter {
  if (detection.kind === "document" && detection.format === "SWE_AGENT_TRAJECTORY") return { format: "SWE_AGENT_TRAJECTORY", run: importSweAgentDocument };
  throw new AppError("UNPROCESSABLE", `Importing this ${detection.kind} is not supported yet`);
}
