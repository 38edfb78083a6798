import path from "node:path";
import { AppError } from "../../errors/app-error";
import type { ImportContext } from "../import-file";
import { importOne } from "../import-records";
import { harnessResultFromReport, identifyLog, legacyOutcome, reportEntries, testsFromLog, type HarnessReport, type HarnessResult } from "../formats/harness-report";
import { findExitCodeMarker } from "../../validation/exit-code-markers";
import { writeHarnessResult } from "../write/write-harness-result";
import { missingTaskAdvice } from "../write/find-tasks";
import { instanceFromFileName } from "./find-instance";
import { readSmallFile } from "./read-small-file";

// report.json files and harness logs, alone or as a run folder (report.json beside
// test_output.txt and patch.diff, found by import-directory.ts).

const write = (tx: Parameters<typeof writeHarnessResult>[0], [result]: HarnessResult[], run: Parameters<typeof writeHarnessResult>[2]) =>
  writeHarnessResult(tx, result, run).then((r) => [r]);

/** The generator when the files do not name it: SWE-bench's folder layout is run_evaluation/<run_id>/<model>/<instance_id>/. */
function generatorFromPath(fileName: string): string | null {
  const parts = fileName.split(/[\\/]/);
  const model = parts.length >= 3 ? parts[parts.length - 3] : null;
  return model && model !== "run_evaluation" && model !== "." ? model : null;
}

async function resolveInstance(ctx: ImportContext, fromFile: string | null): Promise<string | null> {
  return ctx.options.instanceId ?? fromFile ?? (await instanceFromFileName(ctx.db, ctx.fileName));
}

export async function importReportFiles(ctx: ImportContext, files: { report: string; log?: string | null; patch?: string | null; folder?: string | null }) {
  let document: unknown;
  try {
    document = JSON.parse(files.report);
  } catch (error) {
    throw new AppError("UNPROCESSABLE", `The report.json is not valid JSON: ${(error as Error).message}`);
  }
  let entries: Array<{ instanceId: string | null; report: HarnessReport }>;
  try {
    entries = reportEntries(document);
  } catch (error) {
    ctx.run.fail({ line: null, key: ctx.fileName, reason: `not a harness report: ${(error as Error).message}` });
    return;
  }
  for (const entry of entries) {
    const instanceId = entry.instanceId ?? (await resolveInstance(ctx, files.folder ? path.basename(files.folder) : null));
    if (!instanceId) {
      ctx.run.fail({ line: null, key: ctx.fileName, reason: "the report does not name its instance; put it in a folder named after the instance id, name the file after it, or pass the instance id" });
      continue;
    }
    const generator = entry.report.model_name_or_path ?? ctx.options.generator ?? generatorFromPath(ctx.fileName) ?? "unknown";
    const result = harnessResultFromReport({ instanceId, generator, report: entry.report, log: files.log ?? null, patch: files.patch ?? null });
    await importOne(ctx.db, write, result, ctx.run, { key: instanceId });
  }
}

export async function importReportDocument(ctx: ImportContext) {
  await importReportFiles(ctx, { report: await readSmallFile(ctx.filePath, "report.json") });
}

/** A harness log without its report: per-test results come from parsing it against the task's test lists. */
export async function importLogDocument(ctx: ImportContext, folder: string | null = null) {
  const log = await readSmallFile(ctx.filePath, "log");
  const identity = identifyLog(log);
  const instanceId = await resolveInstance(ctx, identity.instanceId ?? (folder ? path.basename(folder) : null));
  if (!instanceId) {
    ctx.run.fail({ line: null, key: ctx.fileName, reason: "cannot tell which instance this log belongs to; import it with its report.json in the run folder, name it after the instance, or pass the instance id" });
    return;
  }
  const task = await ctx.db.task.findUnique({ where: { instanceId }, select: { failToPass: true, passToPass: true } });
  if (!task) {
    ctx.run.fail({ line: null, key: instanceId, reason: missingTaskAdvice(instanceId) });
    return;
  }
  const parsed = testsFromLog(log, task.failToPass, task.passToPass);
  const generator = ctx.options.generator ?? identity.generator ?? generatorFromPath(ctx.fileName) ?? "unknown";
  const summary = legacyOutcome(log);
  const result: HarnessResult = {
    instanceId,
    generator,
    resolved: summary ?? parsed.resolved,
    tests: parsed.tests,
    log,
    exitCode: findExitCodeMarker(log)?.code ?? null,
    flags: parsed.tests.some((t) => t.actual === "MISSING") ? ["F2P_OR_P2P_ABSENT_FROM_LOG"] : [],
    patch: null,
    metadata: { logParser: parsed.parser, legacyHarness: identity.legacy },
  };
  await importOne(ctx.db, write, result, ctx.run, { key: instanceId });
}
