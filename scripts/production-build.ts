import { createHash } from "node:crypto";
import { spawn } from "node:child_process";
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { createRequire } from "node:module";
import { PROJECT_ROOT } from "../lib/db/schema-engine";

export const NEXT_BIN = createRequire(import.meta.url).resolve("next/dist/bin/next");

/**
 * Environment for the web server process. glibc gives each thread that allocates its own
 * malloc arena (up to 8 per core) and returns little of it: under concurrent load the
 * server's native memory grew and stayed while its V8 heap did not (npm run bench:load's
 * smaps report and heap snapshots). Two arenas keep that memory reusable. glibc also raises
 * its mmap threshold as large blocks are freed, after which large buffers come from the main
 * heap and stay with the process when freed; a fixed threshold keeps them in their own
 * mappings, which go back to the system on free.
 */
export const WEB_SERVER_ENV = {
  MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
  MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? "131072",
};

const SOURCE_ROOTS = [
  "app",
  "components",
  "lib",
  "public",
  "proxy.ts",
  "instrumentation.ts",
  "instrumentation-client.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
  "prisma/schema.prisma",
];
const STAMP = path.join(PROJECT_ROOT, ".next", "swe-curator-sources.sha1");

function* files(entry: string): Generator<string> {
  const full = path.join(PROJECT_ROOT, entry);
  if (!existsSync(full)) return;
  const stat = statSync(full);
  if (stat.isFile()) return yield entry;
  for (const child of readdirSync(full).sort()) {
    if (child === "generated" || child === "node_modules") continue;
    yield* files(path.join(entry, child));
  }
}

/** A cheap fingerprint of what the production build depends on (paths, sizes, mtimes). */
export function sourcesFingerprint(): string {
  const hash = createHash("sha1");
  for (const root of SOURCE_ROOTS) {
    for (const file of files(root)) {
      const stat = statSync(path.join(PROJECT_ROOT, file));
      hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  }
  return hash.digest("hex");
}

const LOCK = path.join(PROJECT_ROOT, ".data", "next-build.lock");

function lockHolderAlive(): boolean {
  const pidFile = path.join(LOCK, "pid");
  // the holder writes its pid just after taking the lock: a young lock without one is live
  if (!existsSync(pidFile)) return existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs < 10_000;
  try {
    process.kill(Number(readFileSync(pidFile, "utf8")), 0);
    return true;
  } catch {
    return false;
  }
}

/** Two starts at once (say, parallel e2e runs) must not both write .next/: one builds, the other waits. */
async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
  mkdirSync(path.dirname(LOCK), { recursive: true });
  for (let waited = 0; ; waited++) {
    try {
      mkdirSync(LOCK);
      writeFileSync(path.join(LOCK, "pid"), String(process.pid));
      break;
    } catch {
      if (existsSync(LOCK) && !lockHolderAlive()) rmSync(LOCK, { recursive: true, force: true });
      if (waited === 0) console.log("[start] another process is building the web app; waiting for it…");
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Runs `next build` when there is no build yet or the sources changed since the last one. */
export async function ensureProductionBuild(log: (line: string) => void = console.log, signal?: AbortSignal) {
  await withBuildLock(() => buildIfStale(log, signal));
}

export const BUILD_LOG = path.join(PROJECT_ROOT, ".data", "next-build.log");

async function buildIfStale(log: (line: string) => void, signal?: AbortSignal) {
  const fingerprint = sourcesFingerprint();
  const built =
    existsSync(path.join(PROJECT_ROOT, ".next", "BUILD_ID")) &&
    existsSync(STAMP) &&
    readFileSync(STAMP, "utf8") === fingerprint;
  if (built) return;
  log(
    `[start] building the web app for production (first start, or sources changed): a few minutes on 2 cores, longer on a busy machine; full output in ${path.relative(PROJECT_ROOT, BUILD_LOG)}`,
  );
  await runNextBuild(log, signal);
  writeFileSync(STAMP, fingerprint);
}

/** Next's own lines that mark a step of the build; the route table and the rest go to the log file only. */
const BUILD_STEP =
  /Creating an optimized production build|Compiled successfully|Collecting page data|Generating static pages.*\((\d+)\/\1\)|Finalizing page optimization|Collecting build traces/;
const STILL_BUILDING_EVERY_MS = 30_000;

/**
 * `next build` with its output in BUILD_LOG, its steps and a heartbeat shown as they come, and the log's end shown when it fails.
 * Aborting stops the build's whole process group (next build starts workers of its own).
 */
async function runNextBuild(log: (line: string) => void, signal?: AbortSignal) {
  mkdirSync(path.dirname(BUILD_LOG), { recursive: true });
  const out = createWriteStream(BUILD_LOG);
  const started = Date.now();
  const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
  let step = "starting";
  const child = spawn(process.execPath, [NEXT_BIN, "build"], {
    cwd: PROJECT_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const stopBuild = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {}
  };
  signal?.addEventListener("abort", stopBuild, { once: true });
  const tail: string[] = [];
  const onLine = (line: string) => {
    out.write(line + "\n");
    tail.push(line);
    if (tail.length > 40) tail.shift();
    const match = BUILD_STEP.exec(line);
    if (!match) return;
    step = match[0].replace(/ \(.*$/, "").toLowerCase();
    log(`[start] build ${elapsed()}: ${line.replace(/^\W+/, "").trim()}`);
  };
  createInterface({ input: child.stdout! }).on("line", onLine);
  createInterface({ input: child.stderr! }).on("line", onLine);
  const heartbeat = setInterval(
    () => log(`[start] build ${elapsed()}: still building (last step: ${step})…`),
    STILL_BUILDING_EVERY_MS,
  );
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearInterval(heartbeat);
  signal?.removeEventListener("abort", stopBuild);
  out.end();
  if (signal?.aborted) throw new Error("the build was stopped");
  if (code !== 0)
    throw new Error(
      `next build failed (exit ${code}); its last lines:\n${tail.join("\n")}\n(the whole output is in ${BUILD_LOG})`,
    );
  log(`[start] web app built in ${elapsed()}`);
}
