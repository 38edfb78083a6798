import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "./database";

// Runs the `swe-curator` command as a user's script would: piped output, its exit code.

const BIN = path.join(import.meta.dirname, "../../bin/swe-curator.mjs");

export type CliResult = { code: number | null; stdout: string; stderr: string };

export function cli(args: string[], env: Record<string, string | undefined>, cwd?: string) {
  return new Promise<CliResult>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

let inProcessTurn: Promise<unknown> = Promise.resolve();

/**
 * The same command (lib/cli/main.ts) run inside the test's process, with its stdout, stderr, working
 * folder and environment swapped in for the call: for tests about what a command does (formats read,
 * rows written, sentences printed) rather than the process boundary, which imports-cli.test.ts checks
 * through the real `swe-curator` binary. Saves two Node starts with tsx per call, seconds on a busy machine.
 */
export function cliInProcess(args: string[], env: Record<string, string | undefined>, cwd?: string) {
  const turn = inProcessTurn.then(() => runInProcess(args, env, cwd));
  inProcessTurn = turn.catch(() => {});
  return turn;
}

async function runInProcess(args: string[], env: Record<string, string | undefined>, cwd?: string) {
  const { runCli } = await import("../../lib/cli/main");
  const output = { stdout: "", stderr: "" };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const folder = process.cwd();
  for (const stream of ["stdout", "stderr"] as const)
    process[stream].write = ((chunk: string | Uint8Array) => {
      output[stream] += String(chunk);
      return true;
    }) as typeof process.stdout.write;
  setEnvironment(env);
  try {
    if (cwd) process.chdir(cwd);
    const code = await runCli(args);
    return { code, ...output } satisfies CliResult;
  } finally {
    process.chdir(folder);
    setEnvironment(saved);
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
  }
}

function setEnvironment(values: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(values))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
}

const batchesOf = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));

/** `swe-curator import --json FILE…` through `run`: the batch of each file, as printed on stdout. */
const importCommand =
  (run: typeof cli) =>
  async (files: string[], env: Record<string, string | undefined>, cwd?: string, extra: string[] = []) => {
    const result = await run(["import", "--json", ...extra, ...files], env, cwd);
    return { ...result, batches: batchesOf(result.stdout) };
  };

/** `swe-curator import --json FILE…` through the real binary. */
export const cliImport = importCommand(cli);

/** cliImport inside the test's process (see cliInProcess). */
export const cliImportInProcess = importCommand(cliInProcess);

export type CliWorkspace = { database: TestDatabase; env: Record<string, string>; dir: string };

/**
 * For a describe block: a database of its own, the CLI's environment pointing at it, and a
 * scratch folder named after `prefix` for the files a test writes; both gone afterwards.
 * Read the fields inside tests.
 */
export function useCliWorkspace(prefix: string): CliWorkspace {
  const workspace = {} as CliWorkspace;
  beforeAll(async () => {
    workspace.database = await createTestDatabase();
    workspace.env = { DATABASE_URL: workspace.database.url };
    workspace.dir = mkdtempSync(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (workspace.dir) rmSync(workspace.dir, { recursive: true, force: true });
    await workspace.database?.drop();
  });
  return workspace;
}
