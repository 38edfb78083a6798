// npm run bench:load — the production build under 50 concurrent clients for 60 s, from a
// separate process (this one; the server is `next start`), while a worker runs validations.
//
// Seeds the demo data plus DECISION_TASKS generated SWE-bench tasks (through the real
// importer), starts the web server and a worker on its own embedded PostgreSQL, queues
// validations, then runs autocannon with five kinds of clients at once: the task list with
// filters, task pages, trajectory pages, API reads and decisions (each decision on its own
// task, with an Idempotency-Key). Two runs, each SECONDS long:
//   1. curators: each client waits a random think time (mean 1/--pace s) between requests, as
//      people who read what they open, where the list's p99 target is judged;
//   2. saturation: the same clients with no pause (each sends its next request as its last is
//      answered), which measures the server's capacity and its latency when overloaded.
// Reports requests/s, p50/p95/p99 and errors per kind for each; afterwards checks every accepted
// decision is in the database exactly once with exactly one audit entry, and that the web
// server's memory is back within 10 % of its start (after every kind was served once).
// Usage: npm run bench:load [-- --seconds 60 --clients 50 --pace 0.5 --busy]   (BENCH_SKIP_BUILD=1 reuses .next)
// --busy: one process per core spins for the whole of both runs, as on a machine other work shares
// (issue 33's busy row); the figures go to docs/bench-results/load-busy.json.
// BENCH_HEAP_SNAPSHOTS=DIR writes a V8 heap snapshot of the web server into DIR at the memory
// baseline and again after the run (node --heapsnapshot-signal): compare them in Chrome
// DevTools (Memory → Comparison) to see what the load left behind.
// Writes docs/bench-results/load.json for npm run bench:report: per kind of client, p50/p95/p99 at
// the curators' pace and p99 with no pause, each against the same kind's p50 with one client
// alone (the warm-up's requests before the load, the first of each kind left out); errors out of
// requests sent; decisions lost and duplicated out of those accepted; the server's memory after
// against its start.

import { spawn, type ChildProcess } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { randomUUID } from "node:crypto";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { encode } from "next-auth/jwt";
import { ensureDatabaseExists, startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { prepareDatabase } from "../../lib/db/prepare-database";
import { createPrismaClient } from "../../lib/db/client";
import { createApiToken } from "../../lib/auth/api-tokens";
import { importFile } from "../../lib/imports/import-file";
import { loadDemoEnvironments } from "../../lib/environments/load-demo-environments";
import { PROJECT_ROOT } from "../../lib/db/schema-engine";
import { ensureProductionBuild, NEXT_BIN, WEB_SERVER_ENV } from "../../scripts/production-build";
import { freePort } from "../helpers/free-port";
import { machineState, writeBenchResults, type Figure } from "./results";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args[args.indexOf(`--${name}`) + 1] || 0) || fallback;
const SECONDS = option("seconds", 60);
const CLIENTS = option("clients", 50);
const DECISION_TASKS = option("decision-tasks", 6_000);
const PACE = option("pace", 0.5);
const BUSY = args.includes("--busy");
const SECRET = "bench-load-secret";
const HEAP_SNAPSHOTS = process.env.BENCH_HEAP_SNAPSHOTS;
/** BENCH_CPU_PROFILE=DIR: the web server writes a CPU profile there when it stops (node --cpu-prof) */
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE;

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

/** One process per core that spins until killed: the work another user's job would put on the machine. */
function keepCoresBusy(): ChildProcess[] {
  console.log(`[load] --busy: ${cpus().length} processes keep every core busy during the runs`);
  return cpus().map(() => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
}

/** The processes of a process group (next start may fork). */
function groupPids(pgid: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) === pgid;
      } catch {
        return false; // the process ended while we looked
      }
    })
    .map(Number);
}

/** Resident memory of the web server: every process in its process group. */
function serverRssMb(pgid: number): number {
  let kb = 0;
  for (const pid of groupPids(pgid)) {
    try {
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      kb += rss ? Number(rss[1]) : 0;
    } catch {
      // the process ended while we looked
    }
  }
  return kb / 1024;
}

/**
 * Where a process's resident memory lives, from /proc/PID/smaps: the malloc heap and
 * anonymous mappings (V8's heap, WebAssembly memories and malloc arenas) apart from mapped
 * files (code, shared libraries), so growth can be placed before reaching for a heap snapshot.
 */
function memoryBreakdown(pgid: number): string {
  const kb: Record<string, number> = {};
  for (const pid of groupPids(pgid)) {
    let smaps = "";
    try {
      smaps = readFileSync(`/proc/${pid}/smaps`, "utf8");
    } catch {
      continue;
    }
    let kind = "anonymous";
    for (const line of smaps.split("\n")) {
      const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (mapping) kind = mapping[1] === "" ? "anonymous" : mapping[1].startsWith("[") ? mapping[1] : "files";
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss) kb[kind] = (kb[kind] ?? 0) + Number(rss[1]);
    }
  }
  return Object.entries(kb)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, size]) => `${kind} ${(size / 1024).toFixed(0)} MB`)
    .join(", ");
}

/** Asks every node process of the web server for a heap snapshot (written into HEAP_SNAPSHOTS) and waits for the files. */
async function heapSnapshot(pgid: number, label: string) {
  if (!HEAP_SNAPSHOTS) return;
  const before = new Set(readdirSync(HEAP_SNAPSHOTS));
  const pids = groupPids(pgid);
  for (const pid of pids) process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + 120_000;
  // a snapshot is complete when its file stops growing
  let sizes = "";
  for (;;) {
    await new Promise((r) => setTimeout(r, 2000));
    const fresh = readdirSync(HEAP_SNAPSHOTS).filter((f) => !before.has(f));
    const now = fresh.map((f) => statSync(path.join(HEAP_SNAPSHOTS, f)).size).join(",");
    if ((fresh.length >= pids.length && now === sizes) || Date.now() > deadline) {
      console.log(`[load] heap snapshot "${label}": ${fresh.join(", ")}`);
      return;
    }
    sizes = now;
  }
}

function startProcess(name: string, argv: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, argv, {
    cwd: PROJECT_ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  child.stderr?.on("data", (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
  // read, not shown: a child's writes to a pipe nobody reads block it once the pipe is full
  child.stdout?.on("data", (d: Buffer) => process.env.BENCH_VERBOSE === "1" && process.stdout.write(`[${name}] ${d}`));
  return child;
}

async function waitForHttp(url: string, child: ChildProcess) {
  const deadline = Date.now() + 60_000;
  let exited = false;
  child.on("exit", () => (exited = true));
  for (;;) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {}
    if (exited || Date.now() > deadline) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Generated SWE-bench instances, imported through the real importer: the tasks the decision clients decide. */
function writeDecisionTasks(dir: string): string {
  const file = path.join(dir, "load-tasks.jsonl");
  const lines: string[] = [];
  for (let i = 0; i < DECISION_TASKS; i++) {
    lines.push(
      JSON.stringify({
        repo: `load/repo${i % 20}`,
        instance_id: `load__repo${i % 20}-${i}`,
        base_commit: "0".repeat(40),
        patch: `diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = ${i}\n+x = ${i + 1}\n`,
        test_patch: `diff --git a/test_m.py b/test_m.py\n--- a/test_m.py\n+++ b/test_m.py\n@@ -1 +1 @@\n-assert True\n+assert m.x == ${i + 1}\n`,
        problem_statement: `Load task ${i}: the counter is off by one when the serializer reads a cached value`,
        hints_text: "",
        created_at: "2024-01-01T00:00:00Z",
        version: "1.0",
        FAIL_TO_PASS: JSON.stringify(["test_m.py::test_x"]),
        PASS_TO_PASS: JSON.stringify([]),
        environment_setup_commit: "0".repeat(40),
      }),
    );
  }
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

type Kind = { name: string; connections: number; requests: autocannon.Request[] };
type KindResult = {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
};

/** One kind of client for SECONDS with no pause: each sends its next request as its last is answered (autocannon). */
function runKind(baseUrl: string, kind: Kind): Promise<KindResult> {
  const times: number[] = [];
  let errors = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: baseUrl, connections: kind.connections, duration: SECONDS, requests: kind.requests, timeout: 30 },
      (error, result) => {
        if (error) return reject(error);
        const sorted = times.sort((a, b) => a - b);
        resolve({
          name: kind.name,
          requests: result.requests.total,
          rps: result.requests.total / (result.duration || SECONDS),
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          p99: percentile(sorted, 99),
          errors: errors + result.errors + result.timeouts,
          non2xx: result.non2xx,
        });
      },
    );
    instance.on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) =>
      times.push(responseTime),
    );
    instance.on("reqError", () => errors++);
  });
}

/**
 * One kind of client for SECONDS as people use the product: each client waits a think time
 * drawn at random (exponential, mean 1/pace s), sends one request, reads the answer, and so on.
 * autocannon's rate limits release a second's requests together at the start of each second,
 * so every client would arrive at once: 25 requests/s became a burst of 25 each second, and
 * the list's p50 was half a burst's service time (190 ms) whatever the server's speed.
 */
async function runPacedKind(baseUrl: string, kind: Kind, pace: number): Promise<KindResult> {
  const times: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const template = kind.requests[0];
  // the kinds above give functions (a string would name a module file, which they never do)
  const setup = template.setupRequest as (request: autocannon.Request, context: object) => autocannon.Request;
  const onResponse = template.onResponse as ((status: number, body: string, context: object) => void) | undefined;
  const client = async () => {
    for (;;) {
      await new Promise((r) => setTimeout(r, (-Math.log(1 - Math.random()) / pace) * 1000));
      if (performance.now() >= deadline) return;
      const request = setup({ ...template }, {}) as {
        path?: string;
        method?: string;
        headers?: Record<string, string>;
        body?: string;
      };
      const started = performance.now();
      try {
        const response = await fetch(`${baseUrl}${request.path ?? template.path}`, {
          method: request.method ?? template.method,
          headers: request.headers,
          body: request.body,
          signal: AbortSignal.timeout(30_000),
        });
        const body = await response.text();
        times.push(performance.now() - started);
        if (response.status < 200 || response.status > 299) non2xx++;
        onResponse?.(response.status, body, {});
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: kind.connections }, client));
  const sorted = times.sort((a, b) => a - b);
  return {
    name: kind.name,
    requests: times.length + errors,
    rps: (times.length + errors) / SECONDS,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    errors,
    non2xx,
  };
}

/** One run's table: per kind, the clients, what they were offered to send and what was served. */
function printResults(title: string, kinds: Kind[], results: KindResult[], pace?: number) {
  console.log(`\n${title}`);
  console.log(
    `${"kind".padEnd(22)} ${"clients".padStart(7)} ${"offered/s".padStart(9)} ${"requests".padStart(9)} ${"req/s".padStart(7)} | ${"p50".padStart(7)} ${"p95".padStart(7)} ${"p99".padStart(7)} ms | errors non-2xx`,
  );
  for (const [i, r] of results.entries()) {
    const offered = pace === undefined ? "max" : (kinds[i].connections * pace).toFixed(1);
    console.log(
      `${r.name.padEnd(22)} ${String(kinds[i].connections).padStart(7)} ${offered.padStart(9)} ${String(r.requests).padStart(9)} ${r.rps.toFixed(1).padStart(7)} | ${r.p50.toFixed(1).padStart(7)} ${r.p95.toFixed(1).padStart(7)} ${r.p99.toFixed(1).padStart(7)}    | ${String(r.errors).padStart(6)} ${String(r.non2xx).padStart(7)}`,
    );
  }
}

async function main() {
  const atStart = machineState();
  if (process.env.BENCH_SKIP_BUILD === "1" && existsSync(path.join(PROJECT_ROOT, ".next", "BUILD_ID")))
    console.log("[load] reusing the existing production build");
  else await ensureProductionBuild();

  const dataDir = mkdtempSync(path.join(tmpdir(), "swe-curator-bench-load-"));
  process.env.EMBEDDED_PG_FSYNC = "off";
  const pgServer = await startEmbeddedPostgres({
    dataDir: path.join(dataDir, "pg"),
    port: await freePort(),
    quiet: true,
  });
  const url = `${pgServer.baseUrl}/swe_curator_load`;
  const children: ChildProcess[] = [];
  let spinners: ChildProcess[] = [];
  try {
    await ensureDatabaseExists(url);
    await prepareDatabase(url);
    const prisma = createPrismaClient(url, 4);
    const curator = await prisma.user.create({
      data: { email: "load-curator@bench.local", name: "Load curator", role: "CURATOR" },
    });
    await loadDemoEnvironments(prisma, path.join(PROJECT_ROOT, "prisma/seed/demo"));
    await importFile(prisma, path.join(PROJECT_ROOT, "test/fixtures/swe-agent/pydicom__pydicom-1458.traj"));
    const started = performance.now();
    await importFile(prisma, writeDecisionTasks(dataDir), { source: "SWE_BENCH" });
    console.log(
      `[load] imported ${DECISION_TASKS.toLocaleString()} tasks in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const { token } = await createApiToken(prisma, curator.id, { name: "load" });
    const cookie = `next-auth.session-token=${await encode({ token: { sub: curator.id, sid: randomUUID() }, secret: SECRET })}`;
    const targets = await prisma.task.findMany({
      where: { instanceId: { startsWith: "load__" } },
      select: { id: true, version: true },
      orderBy: { id: "asc" },
    });
    const pages = await prisma.task.findMany({
      where: { NOT: { instanceId: { startsWith: "load__" } } },
      select: { id: true },
    });
    const trajectories = await prisma.trajectory.findMany({ select: { id: true } });
    const environments = await prisma.environment.findMany({ select: { id: true }, take: 20 });

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: url,
      NEXTAUTH_SECRET: SECRET,
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production" as const,
    };
    if (HEAP_SNAPSHOTS) mkdirSync(HEAP_SNAPSHOTS, { recursive: true });
    const snapshots = HEAP_SNAPSHOTS ? ` --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${HEAP_SNAPSHOTS}` : "";
    // node refuses --cpu-prof in NODE_OPTIONS: it goes on the command line
    const profile = CPU_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROFILE}`] : [];
    const next = startProcess("next", [...profile, NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
      ...env,
      ...WEB_SERVER_ENV,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""}${snapshots}`,
    });
    children.push(next);
    await waitForHttp(`${baseUrl}/signin`, next);
    children.push(startProcess("worker", ["--import", "tsx", "workers/main.ts"], { ...env, WORKER_CONCURRENCY: "1" }));

    const bearer = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    // validations for the worker to run during the load (each demo task, both controls)
    for (const task of pages.slice(0, 6))
      await fetch(`${baseUrl}/api/v1/runs`, {
        method: "POST",
        headers: bearer,
        body: JSON.stringify({ taskId: task.id }),
      });

    // warm up every kind once, then take the memory baseline
    const rotate = <T>(items: T[]) => {
      let i = 0;
      return () => items[i++ % items.length];
    };
    const filters = rotate([
      "",
      "status=PENDING",
      "q=serializer",
      "source=SWE_BENCH&sort=updated_desc",
      "verdict=INVALID",
      "q=load__repo3-33",
      "decided=yes",
      "kind=ISSUE_FIX&sort=instance_asc",
    ]);
    const taskPage = rotate(pages.map((t) => `/tasks/${t.id}`));
    const trajectoryPage = rotate(trajectories.map((t) => `/trajectories/${t.id}`));
    const reads = rotate([
      ...pages.slice(0, 10).map((t) => `/api/v1/tasks/${t.id}`),
      ...pages.slice(0, 5).map((t) => `/api/v1/runs?taskId=${t.id}`),
      ...environments.slice(0, 5).map((e) => `/api/v1/environments/${e.id}`),
      "/api/v1/tasks/facets?status=PENDING",
      "/api/v1/environments?limit=20",
      "/api/v1/workers",
      "/api/v1/me",
    ]);
    // every kind once before the baseline: the first request of a route loads its code, which stays
    const warmTargets = targets.splice(-20);
    // each kind's time with one client alone (the kinds' order below), the baseline of its figures under load;
    // the first pass is left out: it loads each route's code
    const alone: number[][] = [[], [], [], [], []];
    const timedFetch = async (kind: number, first: boolean, url: string, init: RequestInit) => {
      const started = performance.now();
      await (await fetch(url, init)).arrayBuffer();
      if (!first) alone[kind].push(performance.now() - started);
    };
    for (const [i, target] of warmTargets.entries()) {
      await timedFetch(0, i === 0, `${baseUrl}/api/v1/tasks?${filters()}`, { headers: bearer });
      await timedFetch(1, i === 0, `${baseUrl}${taskPage()}`, { headers: { cookie } });
      await timedFetch(2, i === 0, `${baseUrl}${trajectoryPage()}`, { headers: { cookie } });
      await timedFetch(3, i === 0, `${baseUrl}${reads()}`, { headers: bearer });
      const decision = {
        taskId: target.id,
        verdict: "NEEDS_CHANGES",
        reasons: ["OTHER"],
        comment: "load warm-up",
        version: target.version,
      };
      await timedFetch(4, i === 0, `${baseUrl}/api/v1/decisions`, {
        method: "POST",
        headers: { ...bearer, "idempotency-key": randomUUID() },
        body: JSON.stringify(decision),
      });
    }
    await heapSnapshot(next.pid!, "start");
    const rssStart = serverRssMb(next.pid!);
    const breakdownStart = memoryBreakdown(next.pid!);

    let nextTarget = 0;
    const accepted = new Set<string>();
    const share = (weight: number) => Math.max(1, Math.round((CLIENTS * weight) / 10));
    const kinds: Kind[] = [
      {
        name: "task list (filters)",
        connections: share(3),
        requests: [
          { method: "GET", setupRequest: (r) => ({ ...r, path: `/api/v1/tasks?${filters()}`, headers: bearer }) },
        ],
      },
      {
        name: "task pages",
        connections: share(2),
        requests: [{ method: "GET", setupRequest: (r) => ({ ...r, path: taskPage(), headers: { cookie } }) }],
      },
      {
        name: "trajectory pages",
        connections: share(1),
        requests: [{ method: "GET", setupRequest: (r) => ({ ...r, path: trajectoryPage(), headers: { cookie } }) }],
      },
      {
        name: "API reads",
        connections: share(2),
        requests: [{ method: "GET", setupRequest: (r) => ({ ...r, path: reads(), headers: bearer }) }],
      },
      {
        name: "decisions",
        connections: share(2),
        requests: [
          {
            method: "POST",
            path: "/api/v1/decisions",
            setupRequest: (r) => {
              // one task per decision; past the last task a repeat is refused (409) and counted as an error
              const target = targets[nextTarget++ % targets.length];
              return {
                ...r,
                headers: { ...bearer, "idempotency-key": randomUUID() },
                body: JSON.stringify({
                  taskId: target.id,
                  verdict: "NEEDS_CHANGES",
                  reasons: ["OTHER"],
                  comment: "load test",
                  version: target.version,
                }),
              };
            },
            onResponse: (status, body) => {
              if (status === 201) accepted.add((JSON.parse(body) as { decision: { taskId: string } }).decision.taskId);
            },
          },
        ],
      },
    ];
    let rssPeak = rssStart;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, serverRssMb(next.pid!))), 1000);
    const phases = [
      { name: `curators: ${CLIENTS} clients, ${PACE} requests/s each, ${SECONDS} s`, pace: PACE as number | undefined },
      { name: `saturation: ${CLIENTS} clients, no pause, ${SECONDS} s`, pace: undefined },
    ];
    console.log(`[load] web server ${rssStart.toFixed(0)} MB at start, after every kind of request was served once`);
    const runs: { phase: (typeof phases)[number]; results: KindResult[]; rssAfter: number }[] = [];
    if (BUSY) spinners = keepCoresBusy();
    for (const phase of phases) {
      console.log(`[load] ${phase.name} against ${baseUrl}`);
      const pace = phase.pace;
      const results = await Promise.all(
        kinds.map((kind) => (pace === undefined ? runKind(baseUrl, kind) : runPacedKind(baseUrl, kind, pace))),
      );
      printResults(phase.name, kinds, results, phase.pace);
      // the server's memory once it has been quiet for 20 s
      await new Promise((r) => setTimeout(r, 20_000));
      runs.push({ phase, results, rssAfter: serverRssMb(next.pid!) });
    }
    clearInterval(sampler);
    const machineDuringRuns = machineState();
    for (const spinner of spinners) spinner.kill("SIGKILL");

    // every decision the clients sent: each task decided exactly once, each with one audit entry
    const sent = Math.min(nextTarget, targets.length);
    const sentIds = targets.slice(0, sent).map((t) => t.id);
    const perTask = await prisma.curationDecision.groupBy({
      by: ["taskId"],
      where: { taskId: { in: sentIds } },
      _count: { _all: true },
    });
    const audits = await prisma.auditEvent.groupBy({
      by: ["entityId"],
      where: { entityType: "task", entityId: { in: sentIds }, action: { startsWith: "task.decided" } },
      _count: { _all: true },
    });
    const ok201 = runs
      .map((run) => run.results[run.results.length - 1])
      .reduce((sum, r) => sum + r.requests - r.non2xx - r.errors, 0);
    const stored = new Set(perTask.map((p) => p.taskId));
    const lost = [...accepted].filter((id) => !stored.has(id)).length;
    const storedUnanswered = perTask.filter((p) => !accepted.has(p.taskId)).length;
    const duplicated = perTask.filter((p) => p._count._all !== 1).length;
    const auditMismatch = sent - audits.filter((a) => a._count._all === 1).length;
    console.log(
      `\ndecisions sent ${sent}, answered 201 ${ok201} (${accepted.size} read back); in the database ${perTask.length} tasks decided: accepted but lost ${lost}, stored with the answer still in flight when the run stopped ${storedUnanswered}, duplicated ${duplicated}; audit entries not exactly one: ${auditMismatch - (sent - perTask.length)}`,
    );

    const rssAfter = runs[runs.length - 1].rssAfter;
    console.log(`web server memory by kind: at start ${breakdownStart}; after ${memoryBreakdown(next.pid!)}`);
    if (HEAP_SNAPSHOTS) {
      // a heap snapshot collects garbage first: what it gives back was garbage V8 had not yet collected or returned
      await heapSnapshot(next.pid!, "after");
      console.log(
        `web server memory after the snapshot's full garbage collection: ${serverRssMb(next.pid!).toFixed(0)} MB (${memoryBreakdown(next.pid!)})`,
      );
    }
    const growth = rssAfter / rssStart - 1;
    const afterEach = runs
      .map(
        (run) =>
          `${run.rssAfter.toFixed(0)} MB 20 s after the ${run.phase.pace === undefined ? "saturation" : "curators'"} run`,
      )
      .join(", ");
    console.log(
      `web server memory: start ${rssStart.toFixed(0)} MB, peak ${rssPeak.toFixed(0)} MB, ${afterEach} (${(growth * 100).toFixed(1)} % of start; target within 10 %: ${growth <= 0.1 ? "met" : "NOT met"})`,
    );
    const curatorsList = runs[0].results[0];
    const saturation = runs[runs.length - 1].results;
    const totalErrors = runs.flatMap((run) => run.results).reduce((sum, r) => sum + r.errors + r.non2xx, 0);
    const capacity = saturation.reduce((sum, r) => sum + r.rps, 0);
    console.log(
      `capacity: ${capacity.toFixed(1)} requests/s with no pause, ${(capacity / (CLIENTS * PACE)).toFixed(1)}× the curators' offered ${(CLIENTS * PACE).toFixed(0)} requests/s; list p99 with no pause ${saturation[0].p99.toFixed(0)} ms`,
    );
    console.log(
      `list p99 at the curators' pace ${curatorsList.p99.toFixed(1)} ms (target < 200 ms): ${curatorsList.p99 < 200 ? "met" : "NOT met"}; errors ${totalErrors} (target 0): ${totalErrors === 0 ? "met" : "NOT met"}; decisions lost ${lost} (target 0): ${lost === 0 && duplicated === 0 ? "met" : "NOT met"}`,
    );
    const auditsWrong = auditMismatch - (sent - perTask.length);
    const requestsSent = runs.flatMap((run) => run.results).reduce((sum, r) => sum + r.requests, 0);
    const aloneName = (i: number) => `the same kind with one client alone before the load, p50 of ${alone[i].length}`;
    const aloneP50 = (i: number) =>
      percentile(
        [...alone[i]].sort((a, b) => a - b),
        50,
      );
    const figures: Figure[] = [];
    for (const [i, r] of runs[0].results.entries()) {
      for (const [p, value] of [
        ["p50", r.p50],
        ["p95", r.p95],
        ["p99", r.p99],
      ] as const) {
        const judged = i === 0 && p === "p99"; // the list's p99 at the curators' pace is the issue's target
        figures.push({
          figure: `load at the curators' pace (${CLIENTS} clients), ${r.name}, ${p}`,
          measured: value,
          baselineName: aloneName(i),
          baseline: aloneP50(i),
          unit: "ms",
          target: judged ? "< 200 ms" : "none (kept for context)",
          met: judged ? value < 200 : null,
        });
      }
    }
    for (const [i, r] of saturation.entries())
      figures.push({
        figure: `load with no pause (${CLIENTS} clients, saturation), ${r.name}, p99`,
        measured: r.p99,
        baselineName: aloneName(i),
        baseline: aloneP50(i),
        unit: "ms",
        target: "none (the server's latency when overloaded)",
        met: null,
      });
    figures.push(
      {
        figure: "load, errors and non-2xx answers, both runs",
        measured: totalErrors,
        baselineName: "requests sent",
        baseline: requestsSent,
        unit: "count",
        target: "0",
        met: totalErrors === 0,
      },
      {
        figure: "load, decisions accepted but lost",
        measured: lost,
        baselineName: "decisions accepted (201, read back)",
        baseline: accepted.size,
        unit: "count",
        target: "0",
        met: lost === 0,
      },
      {
        figure: "load, decisions stored more than once",
        measured: duplicated,
        baselineName: "tasks decided in the database",
        baseline: perTask.length,
        unit: "count",
        target: "0",
        met: duplicated === 0,
      },
      {
        figure: "load, decisions whose audit entries are not exactly one",
        measured: auditsWrong,
        baselineName: "tasks decided in the database",
        baseline: perTask.length,
        unit: "count",
        target: "0",
        met: auditsWrong === 0,
      },
      {
        figure: "load, web server memory 20 s after the last run",
        measured: rssAfter,
        baselineName: "its memory at start (every kind served once)",
        baseline: rssStart,
        unit: "MB",
        target: "within 10 % of start",
        met: growth <= 0.1,
      },
      {
        figure: "load, web server memory at its peak",
        measured: rssPeak,
        baselineName: "its memory at start (every kind served once)",
        baseline: rssStart,
        unit: "MB",
        target: "none (kept for context)",
        met: null,
      },
    );
    const options = { seconds: SECONDS, clients: CLIENTS, pace: PACE, "decision tasks": DECISION_TASKS };
    if (BUSY)
      writeBenchResults(
        "load-busy",
        figures,
        machineDuringRuns,
        { ...options, "cores kept busy": cpus().length },
        "npm run bench:load -- --busy",
      );
    else writeBenchResults("load", figures, atStart, options);
    // a lost or doubled decision is a correctness failure, not a slow figure: say so and fail the run
    if (lost > 0 || duplicated > 0) {
      console.error(
        `\nFAILED: ${lost} accepted decision(s) lost and ${duplicated} duplicated under load; a curator's work went missing or counted twice`,
      );
      process.exitCode = 1;
    }
    await prisma.$disconnect();
  } finally {
    for (const spinner of spinners) spinner.kill("SIGKILL");
    for (const child of children) {
      try {
        if (child.pid) process.kill(-child.pid, "SIGTERM");
      } catch {}
    }
    await new Promise((r) => setTimeout(r, 1000));
    await pgServer.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
