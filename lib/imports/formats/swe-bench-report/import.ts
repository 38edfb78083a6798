import path from "node:path";
import { AppError } from "../../../errors/app-error";
import { describeError, importOne } from "../../import-records";
import {
  harnessResultFromReport,
  identifyLog,
  reportEntries,
  testsFromLog,
  type HarnessReport,
  type HarnessResult,
} from "./map";
import { findExitCodeMarker } from "../../../validation/exit-code-markers";
import { writeHarnessResult } from "../../write/write-harness-result";
import { missingTaskAdvice } from "../../write/find-tasks";
import { instanceFromFileName } from "../../write/find-instance";
import { readSmallFile } from "../../read/read-small-file";
import { generatorChooser } from "../../user-generator";
import type { FormatContext } from "../format";

// report.json files and harness logs, alone or as a run folder (report.json beside
// test_output.txt and patch.diff, found by documents/import-directory.ts, which calls these).

const write = (
  tx: Parameters<typeof writeHarnessResult>[0],
  [result]: HarnessResult[],
  run: Parameters<typeof writeHarnessResult>[2],
) => writeHarnessResult(tx, result, run).then((r) => [r]);

const UNKNOWN_GENERATOR =
  "cannot tell which model's run this is: the report has no model_name_or_path and no imported prediction has this patch; import with --generator MODEL (or the run's predictions first)";

/** Where a result came from: its instance folder, the model and run its path names, and the run's results file. */
export type HarnessSource = {
  folder?: string | null;
  model?: string | null;
  runId?: string | null;
  /** what the run's official results file (resolved_ids) says of this instance */
  official?: { resolved: boolean; file: string } | null;
  patch?: string | null;
};

/** The prediction whose patch the run applied (patch.diff), when the predictions were imported first. */
async function generatorFromPredictions(
  ctx: FormatContext,
  instanceId: string,
  patch: string | null | undefined,
): Promise<string | null> {
  if (!patch?.trim()) return null;
  const candidates = await ctx.db.candidatePatch.findMany({
    where: { task: { instanceId } },
    select: { generator: true, patch: true },
  });
  const same = candidates.filter((c) => c.patch.trim() === patch.trim());
  return same.length === 1 ? same[0].generator : null;
}

/**
 * The generator: what the user said (--generator, the form) always wins; else what the run
 * names — the report or log, then SWE-bench's folder layout — else the imported prediction
 * with the same patch; never another folder name. A file that names another model than the
 * user's is told once per batch.
 */
async function runGenerator(
  ctx: FormatContext,
  instanceId: string,
  named: string | null | undefined,
  source: HarnessSource,
): Promise<string | null> {
  const chosen = generatorChooser(ctx.run, ctx.options.generator)(named ?? source.model, instanceId);
  return chosen ?? (await generatorFromPredictions(ctx, instanceId, source.patch));
}

/** `resolved` as the run's official results file says it, when there is one; a grade of ours that differs is flagged. */
function withOfficialResolved(result: HarnessResult, source: HarnessSource): HarnessResult {
  if (!source.official) return result;
  const differs = result.resolved !== source.official.resolved;
  return {
    ...result,
    resolved: source.official.resolved,
    flags: differs ? [...result.flags, "GRADE_DIFFERS_FROM_RESULTS_FILE"] : result.flags,
    metadata: {
      ...result.metadata,
      resultsFile: source.official.file,
      ...(differs ? { gradedResolved: result.resolved } : {}),
    },
  };
}

async function resolveInstance(ctx: FormatContext, fromFile: string | null): Promise<string | null> {
  return ctx.options.instanceId ?? fromFile ?? (await instanceFromFileName(ctx.db, ctx.fileName));
}

export async function importReportFiles(
  ctx: FormatContext,
  files: { report: string; log?: string | null } & HarnessSource,
) {
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
    ctx.run.fail({
      line: null,
      key: ctx.fileName,
      reason: `not a harness report (${describeError(error)}); a report.json is { "<instance_id>": { "resolved": …, "tests_status": … } } as SWE-bench's harness writes it`,
    });
    return;
  }
  for (const entry of entries) {
    const instanceId =
      entry.instanceId ?? (await resolveInstance(ctx, files.folder ? path.basename(files.folder) : null));
    if (!instanceId) {
      ctx.run.fail({
        line: null,
        key: ctx.fileName,
        reason:
          "the report does not name its instance; put it in a folder named after the instance id, name the file after it, or pass the instance id",
      });
      continue;
    }
    const generator = await runGenerator(ctx, instanceId, entry.report.model_name_or_path, files);
    if (!generator) {
      ctx.run.fail({ line: null, key: instanceId, reason: UNKNOWN_GENERATOR });
      continue;
    }
    const result = withOfficialResolved(
      harnessResultFromReport({
        instanceId,
        generator,
        report: entry.report,
        log: files.log ?? null,
        patch: files.patch ?? null,
      }),
      files,
    );
    await importOne(ctx.db, write, result, ctx.run, { key: instanceId });
  }
}

export async function importReportDocument(ctx: FormatContext) {
  await importReportFiles(ctx, { report: await readSmallFile(ctx.filePath, "report.json") });
}

/** A harness log without its report: per-test results come from parsing it against the task's test lists. */
export async function importLogDocument(ctx: FormatContext, source: HarnessSource = {}) {
  const log = await readSmallFile(ctx.filePath, "log");
  const identity = identifyLog(log);
  const instanceId = await resolveInstance(
    ctx,
    identity.instanceId ?? (source.folder ? path.basename(source.folder) : null),
  );
  if (!instanceId) {
    ctx.run.fail({
      line: null,
      key: ctx.fileName,
      reason:
        "cannot tell which instance this log belongs to; import it with its report.json in the run folder, name it after the instance, or pass the instance id",
    });
    return;
  }
  const task = await ctx.db.task.findUnique({
    where: { instanceId },
    select: {
      failToPass: true,
      passToPass: true,
      environment: { select: { repository: { select: { owner: true, name: true } } } },
    },
  });
  if (!task) {
    ctx.run.fail({ line: null, key: instanceId, reason: missingTaskAdvice(instanceId) });
    return;
  }
  const repository = task.environment.repository;
  const parsed = testsFromLog(log, {
    failToPass: task.failToPass,
    passToPass: task.passToPass,
    repo: `${repository.owner}/${repository.name}`,
  });
  const generator = await runGenerator(ctx, instanceId, identity.generator, source);
  if (!generator) {
    ctx.run.fail({ line: null, key: instanceId, reason: UNKNOWN_GENERATOR });
    return;
  }
  const result: HarnessResult = withOfficialResolved(
    {
      instanceId,
      generator,
      resolved: parsed.resolved,
      tests: parsed.tests,
      log,
      exitCode: findExitCodeMarker(log)?.code ?? null,
      // ungradable (no test in the log, or its harness says the run failed): unresolved, as SWE-bench counts it, and flagged
      flags: [
        ...(parsed.notEvaluated ? ["UNGRADABLE"] : []),
        ...(parsed.tests.some((t) => t.actual === "MISSING") ? ["F2P_OR_P2P_ABSENT_FROM_LOG"] : []),
      ],
      patch: source.patch ?? null,
      metadata: {
        logParser: parsed.parser,
        legacyHarness: identity.legacy,
        notEvaluated: parsed.notEvaluated,
        gradedFrom: "log",
      },
    },
    source,
  );
  await importOne(ctx.db, write, result, ctx.run, { key: instanceId });
}
