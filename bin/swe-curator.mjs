#!/usr/bin/env node
// The `swe-curator` command: runs lib/cli/main.ts with tsx's loader in a child Node
// process. The child gets a capped heap (V8 then collects the import's garbage instead
// of growing: the live heap stays ~110 MB, the whole process < 400 MB on any file size).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(root, "package.json"));
const tsx = pathToFileURL(require.resolve("tsx")).href;
const heap = process.env.SWE_CURATOR_MAX_HEAP_MB ?? "224";

const child = spawn(
  process.execPath,
  [`--max-old-space-size=${heap}`, "--import", tsx, path.join(root, "lib/cli/main.ts"), ...process.argv.slice(2)],
  {
    stdio: "inherit",
    env: process.env,
  },
);
// Ctrl-C reaches the child through the terminal's process group; the child decides (cancel, then quit)
process.on("SIGINT", () => {});
process.on("SIGTERM", () => child.kill("SIGTERM"));
child.on("exit", (code, signal) => process.exit(code ?? (signal === "SIGINT" ? 130 : 1)));
