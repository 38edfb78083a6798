import { readdir } from "node:fs/promises";
import path from "node:path";
import { isEnvironmentFolder } from "./environment-folder/map";
import { readSmallFile } from "../read/read-small-file";

// What a folder is, from its structure alone, before anything is imported: the harnesses'
// own run folders, SWE-bench 1.x log folders, SWE-smith validation runs and OpenSWE
// environment folders. Model and run come from where each layout puts them; the summary
// says in one line what the folder was read as.

export const IGNORED_NAMES = new Set([".git", "node_modules", "__MACOSX", ".DS_Store"]);
const MAX_DEPTH = 8;

/** The files of one harness instance folder: report.json, test_output.txt, patch.diff, run_instance.log. */
const HARNESS_FILES = ["report.json", "test_output.txt", "run_instance.log"];
/** SWE-bench 1.x: `<instance_id>.<model>.eval.log` side by side in one folder */
const LEGACY_LOG = /^([^.]+)\.(.+)\.eval\.log$/;

/** Where SWE-bench puts a run: logs/run_evaluation/<run_id>/<model, "/" written "__">/<instance_id>/ */
export type HarnessPlace = {
  layout: "swe-bench-run" | "swe-smith-validation" | "harness-folder";
  runId: string | null;
  model: string | null;
};

/** SWE-bench writes a model's "/" as "__" in folder names; its predictions keep the "/". */
export const modelFromFolderName = (name: string) => name.replaceAll("__", "/");

/**
 * The run and model a harness instance folder's path names. `parts` is the folder's whole path,
 * its last part the instance id. Only the harnesses' own markers name them, never another
 * folder (such as `logs`).
 */
export function harnessPlace(parts: string[]): HarnessPlace {
  const validation = parts.lastIndexOf("run_validation");
  const evaluation = parts.lastIndexOf("run_evaluation");
  if (validation > evaluation) {
    const after = parts.length - 1 - validation;
    return { layout: "swe-smith-validation", runId: after >= 2 ? parts[validation + 1] : null, model: null };
  }
  if (evaluation === -1) return { layout: "harness-folder", runId: null, model: null };
  const after = parts.length - 1 - evaluation;
  // run_evaluation/<run_id>/<model>/<instance>: SWE-bench; run_evaluation/<run_id>/<instance>: SWE-smith
  if (after === 3)
    return { layout: "swe-bench-run", runId: parts[evaluation + 1], model: modelFromFolderName(parts[evaluation + 2]) };
  if (after === 2) return { layout: "swe-bench-run", runId: parts[evaluation + 1], model: null };
  return { layout: "swe-bench-run", runId: null, model: null };
}

/** A harness's run-level results file: SWE-bench's `<model>.<run_id>.json` (resolved_ids) or SWE-smith's run report (ids_resolved). */
export type ResultsFile = { rel: string; folder: string; resolved: Set<string>; judged: Set<string> };

const idList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** The resolved and judged ids of a results file, or null when the JSON is not one. */
export function parseResultsFile(text: string): { resolved: Set<string>; judged: Set<string> } | null {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const resolved = value.resolved_ids ?? value.ids_resolved;
  if (!Array.isArray(resolved)) return null;
  const judged = [
    "completed_ids",
    "resolved_ids",
    "unresolved_ids",
    "ids_resolved",
    "ids_unresolved",
    "empty_patch_ids",
    "error_ids",
  ].flatMap((key) => idList(value[key]));
  return { resolved: new Set(idList(resolved)), judged: new Set(judged) };
}

export type FolderScan = {
  harnessFolders: Array<{ rel: string; place: HarnessPlace; files: string[] }>;
  environmentFolders: string[];
  legacyLogs: Array<{ rel: string; instanceId: string; model: string }>;
  results: ResultsFile[];
  otherFiles: number;
};

const isHarnessFolder = (files: string[]) =>
  HARNESS_FILES.some((name) => files.includes(name)) || files.includes("test_output_pre_gold.txt");

/** Looks like a run-level results file by name and size (read whole afterwards): a .json beside instance folders, not inside one. */
const maybeResultsFile = (name: string) => name.endsWith(".json") && !name.startsWith(".");

export async function scanFolder(root: string, rootParts: string[]): Promise<FolderScan> {
  const scan: FolderScan = { harnessFolders: [], environmentFolders: [], legacyLogs: [], results: [], otherFiles: 0 };
  async function walk(dir: string, rel: string, depth: number) {
    const entries = (await readdir(dir, { withFileTypes: true })).filter(
      (e) => !IGNORED_NAMES.has(e.name) && !e.name.startsWith("."),
    );
    const relOf = (name: string) => (rel ? `${rel}/${name}` : name);
    const allFiles = entries.filter((e) => e.isFile()).map((e) => e.name);
    // a run-level results file may be called report.json too (SWE-smith's): it is not an instance's report
    const results: ResultsFile[] = [];
    for (const name of allFiles.filter(maybeResultsFile)) {
      const parsed = parseResultsFile(await readSmallFile(path.join(dir, name), "results file").catch(() => ""));
      if (parsed) results.push({ rel: relOf(name), folder: rel, ...parsed });
    }
    scan.results.push(...results);
    const files = allFiles.filter((name) => !results.some((r) => r.rel === relOf(name)));
    const relParts = rel ? rel.split("/") : [];
    if (isEnvironmentFolder(files)) return void scan.environmentFolders.push(rel);
    if (isHarnessFolder(files))
      return void scan.harnessFolders.push({ rel, place: harnessPlace([...rootParts, ...relParts]), files });
    for (const name of files) {
      const legacy = LEGACY_LOG.exec(name);
      if (legacy) scan.legacyLogs.push({ rel: relOf(name), instanceId: legacy[1], model: legacy[2] });
      else scan.otherFiles++;
    }
    for (const entry of entries)
      if (entry.isDirectory() && depth < MAX_DEPTH)
        await walk(path.join(dir, entry.name), relOf(entry.name), depth + 1);
  }
  await walk(root, "", 0);
  return scan;
}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** One line: what the folder was read as ("read as a SWE-bench evaluation run: 1 run, 2 models, 500 instances"). */
export function describeScan(scan: FolderScan): string | null {
  const parts: string[] = [];
  const runs = scan.harnessFolders.filter((f) => f.place.layout === "swe-bench-run");
  if (runs.length) {
    const runIds = new Set(runs.map((f) => f.place.runId ?? ""));
    const models = new Set(runs.map((f) => f.place.model).filter(Boolean));
    const counts = [
      plural(runIds.size, "run"),
      models.size ? plural(models.size, "model") : null,
      plural(new Set(runs.map((f) => f.rel.split("/").at(-1))).size, "instance"),
    ];
    parts.push(
      `a SWE-bench evaluation run${runIds.size === 1 ? "" : "s"}: ${counts.filter(Boolean).join(", ")}${scan.results.length ? ` (resolved as its results file ${scan.results.map((r) => r.rel).join(", ")} says)` : ""}`,
    );
  }
  const validation = scan.harnessFolders.filter((f) => f.place.layout === "swe-smith-validation");
  if (validation.length) parts.push(`a SWE-smith validation run: ${plural(validation.length, "instance")}`);
  const loose = scan.harnessFolders.filter((f) => f.place.layout === "harness-folder");
  if (loose.length) parts.push(`harness result folders: ${plural(loose.length, "instance")}`);
  if (scan.legacyLogs.length)
    parts.push(
      `SWE-bench 1.x evaluation logs: ${plural(scan.legacyLogs.length, "log")}, ${plural(new Set(scan.legacyLogs.map((l) => l.model)).size, "model")}`,
    );
  if (scan.environmentFolders.length)
    parts.push(`OpenSWE environment folders: ${plural(scan.environmentFolders.length, "environment")}`);
  if (!parts.length) return null;
  return `read as ${parts.join("; ")}${scan.otherFiles ? `; and ${plural(scan.otherFiles, "other file")}` : ""}`;
}

/** The results file that speaks for an instance folder: the nearest one above it (for its model, when its name says). */
export function resultsFor(scan: FolderScan, rel: string, model: string | null): ResultsFile | null {
  const above = scan.results.filter((r) => r.folder === "" || rel.startsWith(`${r.folder}/`));
  const forModel = above.filter(
    (r) =>
      !model ||
      path.basename(r.rel).startsWith(`${model.replaceAll("/", "__")}.`) ||
      !/\./.test(path.basename(r.rel, ".json")),
  );
  const candidates = forModel.sort((a, b) => b.folder.length - a.folder.length);
  return candidates[0] ?? null;
}
