// npm run bench:queue — how the job queue scales with the number of worker processes.
//
// Starts an embedded PostgreSQL of its own, installs the queue's schema, and for 1, 8, 32
// and 64 worker processes (each a graphile-worker runner with the product's options and
// concurrency 1) fills the queue with jobs that only sleep, then measures:
//   - claim latency: for each worker, the gap between finishing one job and starting the
//     next while jobs were waiting — what completing a job and claiming another costs;
//   - throughput: jobs finished per second, and its ratio to the ideal (workers × 1/sleep).
// Every figure is also printed as a ratio to the one-worker run measured just before.
// Usage: npm run bench:queue [-- --workers 1,8,32,64 --jobs-per-worker 30 --sleep-ms 50]

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { Logger, runMigrations } from "graphile-worker";
import pg from "pg";
import { ensureDatabaseExists, startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { freePort } from "../helpers/free-port";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) =>
  args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback;
const WORKER_COUNTS = option("workers", "1,8,32,64").split(",").map(Number);
const JOBS_PER_WORKER = Number(option("jobs-per-worker", "30"));
const SLEEP_MS = Number(option("sleep-ms", "50"));
const WORKER_SCRIPT = path.join(import.meta.dirname, "queue-worker.mjs");

type JobTiming = { startedAt: number; endedAt: number };
type RoundResult = {
  workers: number;
  jobs: number;
  seconds: number;
  jobsPerSecond: number;
  claim: { p50: number; p95: number; p99: number };
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Starts one worker process; resolves when its runner is listening, collecting its job timings. */
function startWorker(url: string, timings: JobTiming[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [WORKER_SCRIPT, url, String(SLEEP_MS)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`a bench worker exited early (code ${code})`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const message = JSON.parse(line) as JobTiming & { ready?: boolean };
      if (message.ready) resolve(child);
      else timings.push(message);
    });
  });
}

/** The idle gap of each worker between two jobs: finishing one and claiming the next. */
function claimGaps(perWorker: JobTiming[][]): number[] {
  const gaps: number[] = [];
  for (const timings of perWorker) {
    const sorted = [...timings].sort((a, b) => a.startedAt - b.startedAt);
    for (let i = 1; i < sorted.length; i++) gaps.push(sorted[i].startedAt - sorted[i - 1].endedAt);
  }
  return gaps.sort((a, b) => a - b);
}

async function waitForJobs(perWorker: JobTiming[][], total: number) {
  const deadline = Date.now() + 10 * 60_000;
  while (perWorker.reduce((sum, t) => sum + t.length, 0) < total) {
    if (Date.now() > deadline) throw new Error("the queue did not finish its jobs within 10 minutes");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function runRound(url: string, workers: number): Promise<RoundResult> {
  const perWorker = Array.from({ length: workers }, () => [] as JobTiming[]);
  const children: ChildProcess[] = [];
  try {
    // started a few at a time: 64 Node processes booting at once only measure the CPU
    for (let i = 0; i < workers; i += 8)
      children.push(...(await Promise.all(perWorker.slice(i, i + 8).map((timings) => startWorker(url, timings)))));
    const jobs = workers * JOBS_PER_WORKER;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // one statement, one transaction: every job becomes visible at the same instant
    await client.query(`select graphile_worker.add_job('bench-sleep', '{}'::json) from generate_series(1, $1::int)`, [
      jobs,
    ]);
    await client.end();
    await waitForJobs(perWorker, jobs);
    const all = perWorker.flat();
    const seconds = (Math.max(...all.map((t) => t.endedAt)) - Math.min(...all.map((t) => t.startedAt))) / 1000;
    const gaps = claimGaps(perWorker);
    return {
      workers,
      jobs,
      seconds,
      jobsPerSecond: jobs / seconds,
      claim: { p50: percentile(gaps, 50), p95: percentile(gaps, 95), p99: percentile(gaps, 99) },
    };
  } finally {
    for (const child of children) child.removeAllListeners("exit").kill("SIGTERM");
    await Promise.all(
      children.map(
        (child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve))),
      ),
    );
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}×`;

function printRound(result: RoundResult, baseline: RoundResult) {
  const ideal = result.workers * (1000 / SLEEP_MS);
  console.log(
    `${String(result.workers).padStart(3)} workers  ${String(result.jobs).padStart(5)} jobs  ${result.jobsPerSecond.toFixed(1).padStart(7)} jobs/s (${ratio(result.jobsPerSecond, baseline.jobsPerSecond)} one worker, ${((result.jobsPerSecond / ideal) * 100).toFixed(0)} % of ideal)` +
      `  claim p50 ${ms(result.claim.p50)} (${ratio(result.claim.p50, baseline.claim.p50)})  p95 ${ms(result.claim.p95)} (${ratio(result.claim.p95, baseline.claim.p95)})  p99 ${ms(result.claim.p99)} (${ratio(result.claim.p99, baseline.claim.p99)})`,
  );
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "swe-curator-bench-queue-"));
  const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), quiet: true });
  try {
    const url = `${server.baseUrl}/bench_queue`;
    await ensureDatabaseExists(url);
    await runMigrations({ connectionString: url, logger: new Logger(() => () => {}) });
    console.log(
      `bench:queue — ${JOBS_PER_WORKER} jobs per worker, each sleeping ${SLEEP_MS} ms; one process per worker, concurrency 1`,
    );
    let baseline: RoundResult | undefined;
    for (const workers of WORKER_COUNTS) {
      const result = await runRound(url, workers);
      baseline ??= result;
      printRound(result, baseline);
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main().catch((error) => {
  console.error(`bench:queue failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
