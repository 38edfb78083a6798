// The whole product on one machine with embedded defaults, started by scripts/start.ts in a
// process group of its own. Database (embedded PostgreSQL unless DATABASE_URL), then the
// production build (when the sources changed) side by side with migrations, first admin and
// demo seed, then the web server; the worker starts once the first page answers, so the demo's
// queued validations do not slow the first page. Stops in order: web server, worker, database.
import { spawn, type ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import {
  openDatabase,
  portIsFree,
  startEmbeddedPostgres,
  DatabaseInUseError,
  type DatabaseHandle,
} from "../lib/database-server/database-server";
import { superviseEmbeddedPostgres } from "../lib/database-server/supervise-embedded-postgres";
import { prepareDatabase } from "../lib/db/prepare-database";
import { createPrismaClient } from "../lib/db/client";
import { ensureAdmin } from "../lib/users/ensure-admin";
import { authSecret } from "../lib/auth/secret";
import { seedDemo } from "../prisma/seed/seed-demo";
import { ensureProductionBuild, NEXT_BIN, WEB_SERVER_ENV } from "./production-build";
import { startBanner, type AdminLogin } from "./start-banner";
import { DEMO_USERS } from "../prisma/seed/seed-demo";
import { DEMO_ANNOTATORS } from "../lib/campaigns/demo-campaign";
import { PROJECT_ROOT } from "../lib/db/schema-engine";
import { ConfigError, serverConfig } from "../lib/config/server-config";

const { values: flags } = parseArgs({
  options: {
    dev: { type: "boolean", default: false },
    "no-worker": { type: "boolean", default: false },
    "no-seed": { type: "boolean", default: false },
  },
});

const config = readConfigOrStop();
const { PORT: port, HOST: host } = config;
const publicUrl = config.NEXTAUTH_URL ?? `http://localhost:${port}`;

let database: DatabaseHandle | undefined;
let web: ChildProcess | undefined;
let worker: { stop(): Promise<void> } | undefined;
let stopping = false;
/** stops a build still running when a stop comes */
const building = new AbortController();
/** how long the web server gets to exit before the database goes away under it */
const WEB_EXIT_WAIT_MS = 10_000;

function fail(message: string): never {
  console.error(`\n✖ ${message}\n`);
  process.exit(1);
}

/** Every variable checked before anything starts: a bad one stops here with its sentence. */
function readConfigOrStop() {
  try {
    return serverConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

async function stopWebServer() {
  const server = web;
  if (!server?.pid || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  try {
    process.kill(-server.pid, "SIGTERM"); // the whole group: `next` leaves next-server otherwise
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, WEB_EXIT_WAIT_MS).unref())]);
}

/** Web server, then worker, then database: each stops while what it talks to is still there, so nothing prints a 57P01. */
async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  console.log("\n[start] stopping…");
  building.abort();
  await stopWebServer();
  await worker?.stop().catch((e) => console.error("[start] worker stop:", e));
  await database?.stop().catch((e) => console.error("[start] database stop:", e));
  console.log("[start] stopped");
  process.exit(code);
}

/** Only our shutdown answers a stop signal: embedded-postgres's exit hook would stop the database at once, under the worker. */
function takeStopSignals() {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    for (const listener of process.listeners(signal)) process.off(signal, listener);
    process.on(signal, () => void shutdown(0));
  }
}

async function startWorkerBeside(url: string) {
  if (flags["no-worker"] || !config.START_WORKER) return;
  try {
    const { startWorkerRunner } = await import("../workers/runner");
    worker = await startWorkerRunner({ connectionString: url });
    console.log("[start] a worker runs beside the web server (npm run worker starts more)");
  } catch (error) {
    console.error(
      `[start] the worker did not start: ${(error as Error).message}. The dashboard still works; builds and validations will wait.`,
    );
  }
}

async function demoAccounts(prisma: ReturnType<typeof createPrismaClient>) {
  const annotators = new Set(DEMO_ANNOTATORS.map((a) => a.email));
  const users = await prisma.user.findMany({
    where: { email: { in: [...DEMO_USERS, ...DEMO_ANNOTATORS].map((u) => u.email) }, disabled: false },
    select: { email: true, role: true },
    orderBy: { email: "asc" },
  });
  return users.map((u) => ({ ...u, annotator: annotators.has(u.email) }));
}

async function adminLogin(
  prisma: ReturnType<typeof createPrismaClient>,
  created: Awaited<ReturnType<typeof ensureAdmin>>,
): Promise<AdminLogin> {
  if (created.created) return created;
  const admin = await prisma.user.findFirst({
    where: { role: "ADMIN", disabled: false },
    orderBy: { createdAt: "asc" },
    select: { email: true },
  });
  return { created: false, email: admin?.email };
}

/** Migrations, first admin, demo seed: what the banner reports, read while the build runs. */
async function prepareData(url: string) {
  const { applied } = await prepareDatabase(url);
  if (applied.length) console.log(`[start] applied migrations: ${applied.join(", ")}`);
  const prisma = createPrismaClient(url, 2);
  try {
    const admin = await adminLogin(prisma, await ensureAdmin(prisma));
    const seed = flags["no-seed"] || !config.SEED_DEMO ? null : await seedDemo(prisma, { log: console.log });
    const password = {
      value: seed?.demoPassword?.value,
      generated: seed?.demoPassword?.generated ?? false,
      fromSetting: !!config.DEMO_PASSWORD,
    };
    return {
      admin,
      demo: { accounts: await demoAccounts(prisma), password, tasks: seed?.seeded ? seed.tasks : undefined },
    };
  } finally {
    await prisma.$disconnect();
  }
}

async function main() {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void shutdown(0));
  // scripts/start.ts holds the other end: when it is gone, however it went, stop too
  process.on("disconnect", () => void shutdown(0));

  if (!(await portIsFree(port, host))) {
    fail(
      `Port ${port} is already in use: is SWE Curator already running? Stop it, or start on another port with PORT=${port + 1} npm start.`,
    );
  }
  try {
    database = await openDatabase();
  } catch (error) {
    fail(
      error instanceof DatabaseInUseError ? error.message : `Could not open the database: ${(error as Error).message}`,
    );
  }
  takeStopSignals();
  console.log(
    database.embedded ? `[start] embedded PostgreSQL ready (data in .data/postgres)` : `[start] using DATABASE_URL`,
  );
  if (database.server) {
    const supervisor = superviseEmbeddedPostgres(database.server, () => startEmbeddedPostgres({ quiet: true }), {
      log: (line) => console.error(`[start] ${line}`),
      giveUp: (reason) => {
        console.error(`\n✖ ${reason}\n`);
        void shutdown(1);
      },
    });
    database = { ...database, stop: supervisor.stop };
  }

  process.env.DATABASE_URL = database.url;
  process.env.NEXTAUTH_URL = publicUrl;
  process.env.NEXTAUTH_SECRET = authSecret();
  process.env.NEXT_TELEMETRY_DISABLED = "1";

  // the build needs no data: it runs beside migrations and the seed instead of after them
  const [, ready] = await Promise.all([
    flags.dev ? undefined : ensureProductionBuild(console.log, building.signal),
    prepareData(database.url),
  ]);
  web = spawn(process.execPath, [NEXT_BIN, flags.dev ? "dev" : "start", "-p", String(port), "-H", host], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...WEB_SERVER_ENV },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  web.on("exit", (code) => {
    if (!stopping) {
      console.error(`[start] the web server exited (${code}); stopping`);
      void shutdown(code ?? 1);
    }
  });
  await waitForHttp(`http://127.0.0.1:${port}/signin`);
  await startWorkerBeside(database.url);
  console.log(startBanner(publicUrl, ready.admin, ready.demo));
}

async function waitForHttp(url: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  fail(`The web server did not answer on ${url} within ${timeoutMs / 1000} s`);
}

main().catch(async (error) => {
  if (stopping) return; // a stop during the build ends the build with an error: not a failure
  console.error(`[start] failed: ${error instanceof Error ? error.message : String(error)}`);
  await shutdown(1);
});
