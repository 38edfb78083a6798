import path from "node:path";
import { AppError } from "../../../errors/app-error";
import { parseOpenSweRow } from "../openswe-environment/map";
import type { TaskRecord } from "../../records/task-record";

// An OpenSWE-style environment as a folder (or inside a .zip/.tar): a Dockerfile, an eval
// script, the test-only and fix patches, and metadata (the SWE-bench / OpenSWE row fields).
// Any other file is build context and goes to Environment.contextFiles. The layout is
// documented in lib/imports/README.md.

const NAMES = {
  dockerfile: ["Dockerfile"],
  evalScript: ["eval.sh", "eval_script.sh", "eval.bash", "run_tests.sh"],
  testPatch: ["test.patch", "test_patch.diff", "test_patch.patch", "tests.patch"],
  fixPatch: ["fix.patch", "patch.diff", "gold.patch", "fix_patch.diff", "patch.patch"],
  metadata: ["metadata.json", "instance.json", "task.json", "environment.json"],
  problem: ["problem_statement.md", "problem_statement.txt", "issue.md"],
} as const;

export const MAX_CONTEXT_FILE_BYTES = 1024 * 1024;
export const MAX_CONTEXT_BYTES = 32 * 1024 * 1024;

// the demo seed's task.json is camelCase; SWE-bench rows are snake_case
const ALIASES: Record<string, string> = {
  instanceId: "instance_id",
  repository: "repo",
  baseCommit: "base_commit",
  failToPass: "FAIL_TO_PASS",
  passToPass: "PASS_TO_PASS",
  problemStatement: "problem_statement",
  environmentSetupCommit: "environment_setup_commit",
  fail_to_pass: "FAIL_TO_PASS",
  pass_to_pass: "PASS_TO_PASS",
};

const utf8 = new TextDecoder("utf-8", { fatal: true });
const asText = (buffer: Buffer): string | null => {
  if (buffer.includes(0)) return null;
  try {
    return utf8.decode(buffer);
  } catch {
    return null;
  }
};

export function isEnvironmentFolder(fileNames: string[]): boolean {
  return fileNames.includes("Dockerfile");
}

/** files: path relative to the folder → bytes. */
export function parseEnvironmentFolder(folderName: string, files: Map<string, Buffer>): TaskRecord {
  const take = (names: readonly string[]) => {
    for (const name of names) {
      const buffer = files.get(name);
      if (buffer) {
        files.delete(name);
        const text = asText(buffer);
        if (text === null) throw new AppError("UNPROCESSABLE", `${name} is not UTF-8 text`);
        return text;
      }
    }
    return undefined;
  };
  const dockerfile = take(NAMES.dockerfile);
  const evalScript = take(NAMES.evalScript);
  if (!evalScript)
    throw new AppError("UNPROCESSABLE", `no eval script (${NAMES.evalScript.join(", ")}) beside the Dockerfile`);
  const testPatch = take(NAMES.testPatch);
  const fixPatch = take(NAMES.fixPatch);
  const problem = take(NAMES.problem);
  const metadataText = take(NAMES.metadata);
  let metadata: Record<string, unknown> = {};
  if (metadataText !== undefined) {
    try {
      metadata = JSON.parse(metadataText) as Record<string, unknown>;
    } catch (error) {
      throw new AppError("UNPROCESSABLE", `the metadata file is not valid JSON: ${(error as Error).message}`);
    }
  }
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) row[ALIASES[key] ?? key] = value;
  row.instance_id ??= path.basename(folderName);
  row.problem_statement ??= problem ?? "";
  row.patch ??= fixPatch ?? "";
  row.test_patch ??= testPatch ?? "";
  row.dockerfile = dockerfile;
  row.eval_script = evalScript;
  if (typeof row.repo !== "string")
    throw new AppError("UNPROCESSABLE", `the metadata must name the repository ("repo": "owner/name")`);
  row.base_commit ??= row.commit ?? "snapshot";

  const contextFiles: Record<string, string> = {};
  const skipped: string[] = [];
  let contextBytes = 0;
  for (const [name, buffer] of [...files.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const text = buffer.length <= MAX_CONTEXT_FILE_BYTES ? asText(buffer) : null;
    if (text === null || contextBytes + buffer.length > MAX_CONTEXT_BYTES) {
      skipped.push(name);
      continue;
    }
    contextBytes += buffer.length;
    contextFiles[name] = text;
  }
  const record = parseOpenSweRow(row);
  return {
    ...record,
    environment: {
      ...record.environment,
      contextFiles: Object.keys(contextFiles).length ? contextFiles : null,
      metadata: {
        ...(record.environment.metadata ?? {}),
        importedFolder: folderName,
        ...(skipped.length ? { skippedFiles: skipped } : {}),
      },
    },
  };
}
