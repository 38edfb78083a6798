import type { ImportFormat } from "../db/client";
import type { Detection } from "./formats/detect-format";
import type { ImportContext } from "./import-context";
import type { RecordImporter } from "./import-records";
import { sweBenchInstancesImporter } from "./formats/swe-bench-instances/import";
import { sweBenchPredictionsImporter } from "./formats/swe-bench-predictions/import";
import { openSweRowsImporter } from "./formats/openswe-environment/import";
import { sweFlowStepsImporter } from "./formats/swe-flow-steps/import";
import { reviewerVerdictsImporter } from "./formats/reviewer-verdicts/import";
import {
  importInspectLog,
  importOpenHandsEvents,
  importSweAgentDocument,
  openHandsOutputImporter,
  r2eGymImporter,
} from "./documents/trajectory-documents";
import { importLogDocument, importReportDocument } from "./documents/harness-documents";
import { importArchive } from "./documents/import-archive";
import { generatorChooser } from "./user-generator";

// Which importer handles which detected format. Record formats share the batch loop in
// import-records.ts; documents, logs and archives run their own. The files they read, by
// extension, are listed in importable-files.ts (browser-safe: the upload picker's accept list).

export type DocumentImporter = { format: ImportFormat; run(ctx: ImportContext): Promise<void> };

export function recordImporterFor(format: ImportFormat, ctx: ImportContext): RecordImporter<unknown> {
  // what the user said (--generator, the form) wins over the model a record names
  const chooseGenerator = generatorChooser(ctx.run, ctx.options.generator);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each importer has its own record type
  const importers: Partial<Record<ImportFormat, () => RecordImporter<any>>> = {
    SWE_BENCH_INSTANCES: () => sweBenchInstancesImporter(ctx.fileName, ctx.options.source),
    SWE_BENCH_PREDICTIONS: () => sweBenchPredictionsImporter(chooseGenerator),
    OPENSWE_ENVIRONMENT: () => openSweRowsImporter,
    SWE_FLOW_STEPS: () => sweFlowStepsImporter,
    REVIEWER_VERDICTS: () => reviewerVerdictsImporter,
    OPENHANDS_TRAJECTORY: () => openHandsOutputImporter(chooseGenerator),
    R2E_GYM_TRAJECTORY: () => r2eGymImporter(chooseGenerator),
  };
  const make = importers[format];
  if (!make) throw new Error(`${format} files are not made of independent records`);
  return make() as RecordImporter<unknown>;
}

const DOCUMENTS: Partial<Record<ImportFormat, DocumentImporter["run"]>> = {
  SWE_AGENT_TRAJECTORY: importSweAgentDocument,
  OPENHANDS_TRAJECTORY: importOpenHandsEvents,
  INSPECT_LOG: importInspectLog,
  SWE_BENCH_REPORT: importReportDocument,
};

export function documentImporterFor(
  detection: Exclude<Detection, { kind: "records" } | { kind: "unknown" } | { kind: "parquet" }>,
): DocumentImporter {
  if (detection.kind === "log") return { format: "SWE_BENCH_REPORT", run: (ctx) => importLogDocument(ctx) };
  // a folder's layout decides its format once it has been read (folder-layout.ts)
  if (detection.kind === "archive") return { format: "UNKNOWN", run: (ctx) => importArchive(ctx, detection.archive) };
  const run = DOCUMENTS[detection.format];
  if (!run) throw new Error(`no document importer for ${detection.format}`);
  return { format: detection.format, run };
}
