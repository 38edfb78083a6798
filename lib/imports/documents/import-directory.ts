import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { ImportContext } from "../import-context";
import { importOne } from "../import-records";
import { isEnvironmentFolder, MAX_CONTEXT_BYTES, parseEnvironmentFolder } from "../formats/environment-folder/map";
import { writeTaskRecords } from "../write/write-task-records";
import { describeError } from "../import-records";
import { importLogDocument, importReportFiles, type HarnessSource } from "../formats/swe-bench-report/import";
import { readSmallFile } from "../read/read-small-file";
import { ValidationReportSchema, writeGoldValidation } from "../write/write-gold-validation";
import {
  describeScan,
  harnessPlace,
  IGNORED_NAMES,
  resultsFor,
  scanFolder,
  type FolderScan,
} from "../formats/folder-layout";

// A folder (or an unpacked archive), read by the layout it has (folder-layout.ts):
// environment folders (a Dockerfile inside), harness instance folders (report.json,
// test_output.txt, patch.diff, run_instance.log), run-level results files, and any other
// importable file, each accounted for in the same ImportBatch with its path as the key of its errors.

const IGNORED = IGNORED_NAMES;
const IMPORTABLE = /\.(json|jsonl|traj|log|txt)$/i;
const NOT_DATA = /^(SOURCES|README|LICENSE|NOTICE)(\.[a-z]+)?$/i;
const MAX_DEPTH = 8;

async function readFolderFiles(dir: string, prefix = "", files = new Map<string, Buffer>(), budget = { bytes: 0 }) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (IGNORED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await readFolderFiles(full, rel, files, budget);
    else if (entry.isFile()) {
      const { size } = await lstat(full);
      budget.bytes += size;
      if (budget.bytes > MAX_CONTEXT_BYTES * 2)
        throw new Error(`the environment folder holds more than ${(MAX_CONTEXT_BYTES * 2) / 1024 / 1024} MB`);
      files.set(rel, await readFile(full));
    }
  }
  return files;
}

async function importEnvironmentFolder(ctx: ImportContext, dir: string, rel: string) {
  try {
    const record = parseEnvironmentFolder(rel || path.basename(dir), await readFolderFiles(dir));
    await importOne(ctx.db, writeTaskRecords, record, ctx.run, { key: rel || "." });
  } catch (error) {
    ctx.run.fail({ line: null, key: rel || ".", reason: describeError(error) });
  }
}

/** A SWE-smith validation instance: the gold patch's test outcomes, attached to the task as its positive control. */
async function importGoldValidation(
  ctx: ImportContext,
  instanceId: string,
  runId: string | null,
  where: string,
  read: (name: string) => Promise<string | null>,
) {
  try {
    const text = await read("report.json");
    if (text === null) {
      ctx.run.fail({
        line: null,
        key: where,
        reason:
          "this SWE-smith validation folder has no report.json, so there is nothing to attach; validate the instance again",
      });
      return;
    }
    const report = ValidationReportSchema.parse(JSON.parse(text));
    const log = (await read("test_output.txt")) ?? null;
    await importOne(
      ctx.db,
      (tx, [validation], run) => writeGoldValidation(tx, validation, run).then((r) => [r]),
      { instanceId, report, log, runId },
      ctx.run,
      { key: where },
    );
  } catch (error) {
    ctx.run.fail({ line: null, key: where, reason: describeError(error) });
  }
}

/** One harness instance folder: graded from report.json when it has one, else from test_output.txt. */
async function importRunFolder(ctx: ImportContext, dir: string, rel: string, names: string[], layout: Layout) {
  const read = async (name: string) => (names.includes(name) ? readSmallFile(path.join(dir, name), name) : null);
  const place = harnessPlace([...layout.rootParts, ...(rel ? rel.split("/") : [])]);
  const instanceFolder = rel || path.basename(dir);
  const instanceId = path.basename(instanceFolder);
  const results = layout.scan ? resultsFor(layout.scan, rel, place.model) : null;
  const source: HarnessSource = {
    folder: instanceFolder,
    model: place.model,
    runId: place.runId,
    official: results?.judged.has(instanceId)
      ? { resolved: results.resolved.has(instanceId), file: results.rel }
      : null,
  };
  const key = (name: string) => (rel ? `${rel}/${name}` : name);
  if (place.layout === "swe-smith-validation")
    return importGoldValidation(ctx, instanceId, place.runId, key("report.json"), read);
  try {
    const patch = await read("patch.diff");
    const log = (await read("test_output.txt")) ?? (await read("test_output_pre_gold.txt"));
    if (names.includes("report.json")) {
      await importReportFiles(
        { ...ctx, fileName: key("report.json") },
        { report: (await read("report.json"))!, log, patch, ...source },
      );
    } else if (log !== null) {
      const logName = names.includes("test_output.txt") ? "test_output.txt" : "test_output_pre_gold.txt";
      await importLogDocument(
        { ...ctx, filePath: path.join(dir, logName), fileName: key(logName) },
        { ...source, patch },
      );
    } else {
      ctx.run.fail({
        line: null,
        key: key("run_instance.log"),
        reason:
          "this harness folder has neither report.json nor test_output.txt, so there is nothing to grade; the instance did not finish its run — evaluate it again",
      });
    }
  } catch (error) {
    ctx.run.fail({ line: null, key: key("report.json"), reason: describeError(error) });
  }
}

type Layout = { rootParts: string[]; scan: FolderScan | null };

/** Reads the folder's layout first, says what it was read as, then imports it. */
export async function importFolder(ctx: ImportContext, dir: string, rootParts: string[]) {
  const scan = await scanFolder(dir, rootParts);
  ctx.run.readAs = describeScan(scan);
  if (ctx.run.format === "UNKNOWN" && (scan.harnessFolders.length || scan.legacyLogs.length || scan.results.length))
    await ctx.run.setFormat("SWE_BENCH_REPORT");
  else if (ctx.run.format === "UNKNOWN" && scan.environmentFolders.length)
    await ctx.run.setFormat("OPENSWE_ENVIRONMENT");
  const results = new Set(scan.results.map((r) => r.rel));
  await importDirectory(ctx, dir, { rootParts, scan, results });
}

async function importDirectory(
  ctx: ImportContext,
  dir: string,
  layout: Layout & { results: Set<string> },
  rel = "",
  depth = 0,
): Promise<void> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter(
    (e) => !IGNORED.has(e.name) && !e.name.startsWith("."),
  );
  const names = entries
    .filter((e) => e.isFile() && !layout.results.has(rel ? `${rel}/${e.name}` : e.name))
    .map((e) => e.name);
  if (isEnvironmentFolder(names)) return importEnvironmentFolder(ctx, dir, rel);
  if (
    ["report.json", "test_output.txt", "run_instance.log", "test_output_pre_gold.txt"].some((name) =>
      names.includes(name),
    )
  )
    return importRunFolder(ctx, dir, rel, names, layout);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    await ctx.run.checkCancelled();
    const full = path.join(dir, entry.name);
    const childRel = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory() && depth < MAX_DEPTH) await importDirectory(ctx, full, layout, childRel, depth + 1);
    // a results file decides `resolved` of the instances beside it; it holds no result of its own
    else if (
      entry.isFile() &&
      IMPORTABLE.test(entry.name) &&
      !NOT_DATA.test(entry.name) &&
      !layout.results.has(childRel)
    )
      await ctx.importNested(full, childRel);
  }
}
