import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { ImportContext } from "../import-context";
import { importOne } from "../import-records";
import { isEnvironmentFolder, MAX_CONTEXT_BYTES, parseEnvironmentFolder } from "../formats/environment-folder";
import { writeTaskRecords } from "../write/write-task-records";
import { describeError } from "../import-records";
import { importLogDocument, importReportFiles } from "./harness-documents";
import { readSmallFile } from "./read-small-file";

// A folder (or an unpacked archive): environment folders (a Dockerfile inside), harness
// run folders (a report.json inside), and any other importable file, each accounted for
// in the same ImportBatch with its path as the key of its errors.

const IGNORED = new Set([".git", "node_modules", "__MACOSX", ".DS_Store"]);
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
      if (budget.bytes > MAX_CONTEXT_BYTES * 2) throw new Error(`the environment folder holds more than ${(MAX_CONTEXT_BYTES * 2) / 1024 / 1024} MB`);
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

async function importRunFolder(ctx: ImportContext, dir: string, rel: string, names: string[]) {
  const read = async (name: string) => (names.includes(name) ? readSmallFile(path.join(dir, name), name) : null);
  const log = (await read("test_output.txt")) ?? (await read("test_output_pre_gold.txt"));
  try {
    await importReportFiles({ ...ctx, fileName: rel ? `${rel}/report.json` : "report.json" }, { report: (await read("report.json"))!, log, patch: await read("patch.diff"), folder: rel || path.basename(dir) });
  } catch (error) {
    ctx.run.fail({ line: null, key: rel ? `${rel}/report.json` : "report.json", reason: describeError(error) });
  }
}

export async function importDirectory(ctx: ImportContext, dir: string, rel = "", depth = 0): Promise<void> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => !IGNORED.has(e.name) && !e.name.startsWith("."));
  const names = entries.filter((e) => e.isFile()).map((e) => e.name);
  if (isEnvironmentFolder(names)) return importEnvironmentFolder(ctx, dir, rel);
  if (names.includes("report.json")) return importRunFolder(ctx, dir, rel, names);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    await ctx.run.checkCancelled();
    const full = path.join(dir, entry.name);
    const childRel = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory() && depth < MAX_DEPTH) await importDirectory(ctx, full, childRel, depth + 1);
    else if (entry.isFile() && IMPORTABLE.test(entry.name) && !NOT_DATA.test(entry.name)) {
      if (/^test_output.*\.txt$/.test(entry.name)) await importLogDocument({ ...ctx, filePath: full, fileName: childRel }, rel);
      else await ctx.importNested(full, childRel);
    }
  }
}
