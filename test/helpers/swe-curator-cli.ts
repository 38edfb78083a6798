import { spawn } from "node:child_process";
import path from "node:path";

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

/** `swe-curator import --json FILE…`: the batch of each file, as printed on stdout. */
export async function cliImport(
  files: string[],
  env: Record<string, string | undefined>,
  cwd?: string,
  extra: string[] = [],
) {
  const result = await cli(["import", "--json", ...extra, ...files], env, cwd);
  const batches = result.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  return { ...result, batches };
}
