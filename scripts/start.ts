// `npm start`: the whole product on one machine with embedded defaults.
// Database (embedded PostgreSQL unless DATABASE_URL) → migrations → first admin → demo
// seed → production build when the sources changed → web server + a worker beside it.
import { spawn, type ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import { openDatabase, portIsFree, startEmbeddedPostgres, DatabaseInUseError, type DatabaseHandle } from "../lib/db/database-server";
import { superviseEmbeddedPostgres } from "../lib/db/supervise-embedded-postgres";
import { prepareDatabase } from "../lib/db/prepare-database";
import { createPrismaClient } from "../lib/db/client";
import { ensureAdmin } from "../lib/users/ensure-admin";
import { authSecret } from "../lib/auth/secret";
import { seedDemo } from "../prisma/seed/seed-demo";
import { ensureProductionBuild, NEXT_BIN, WEB_SERVER_ENV } from "./production-build";
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

async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  console.log("\n[start] stopping…");
  if (web?.pid) {
    try {
      process.kill(-web.pid, "SIGTERM"); // the whole group: `next` leaves next-server otherwise
    } catch {}
  }
  await worker?.stop().catch((e) => console.error("[start] worker stop:", e));
  await database?.stop().catch((e) => console.error("[start] database stop:", e));
  process.exit(code);
}

async function startWorkerBeside(url: string) {
  if (flags["no-worker"] || !config.START_WORKER) return;
  try {
    const { startWorkerRunner } = await import("../workers/runner");
    worker = await startWorkerRunner({ connectionString: url });
    console.log("[start] a worker runs beside the web server (npm run worker starts more)");
  } catch (error) {
    console.error(`[start] the worker did not start: ${(error as Error).message}. The dashboard still works; builds and validations will wait.`);
  }
}

function printWelcome(admin: Awaited<ReturnType<typeof ensureAdmin>>, seed: Awaited<ReturnType<typeof seedDemo>> | null) {
  const lines = [`SWE Curator is up at ${publicUrl}`];
  if (admin.created) {
    lines.push(`  admin: ${admin.email} / ${admin.generated ? admin.password + "   (generated: shown once, only its hash is stored)" : "ADMIN_PASSWORD"}`);
  }
  if (seed?.seeded && seed.demoPassword) {
    lines.push(`  demo curator: curator@swe-curator.local, demo viewer: viewer@swe-curator.local / ${seed.demoPassword.generated ? seed.demoPassword.value + "   (shown once)" : "DEMO_PASSWORD"}`);
    lines.push(`  demo data: ${seed.tasks} tasks`);
  }
  lines.push("  stop with Ctrl-C");
  console.log("\n" + lines.join("\n") + "\n");
}

async function main() {
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));

  if (!(await portIsFree(port, host))) {
    fail(`Port ${port} is already in use: is SWE Curator already running? Stop it, or start on another port with PORT=${port + 1} npm start.`);
  }
  try {
    database = await openDatabase();
  } catch (error) {
    fail(error instanceof DatabaseInUseError ? error.message : `Could not open the database: ${(error as Error).message}`);
  }
  console.log(database.embedded ? `[start] embedded PostgreSQL ready (data in .data/postgres)` : `[start] using DATABASE_URL`);
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
  const { applied } = await prepareDatabase(database.url);
  if (applied.length) console.log(`[start] applied migrations: ${applied.join(", ")}`);

  process.env.DATABASE_URL = database.url;
  process.env.NEXTAUTH_URL = publicUrl;
  process.env.NEXTAUTH_SECRET = authSecret();
  process.env.NEXT_TELEMETRY_DISABLED = "1";

  const prisma = createPrismaClient(database.url, 2);
  const admin = await ensureAdmin(prisma);
  const seed = flags["no-seed"] || !config.SEED_DEMO ? null : await seedDemo(prisma, { log: console.log });
  await prisma.$disconnect();

  if (!flags.dev) await ensureProductionBuild();
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
  await startWorkerBeside(database.url);
  await waitForHttp(`http://127.0.0.1:${port}/signin`);
  printWelcome(admin, seed);
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
  console.error("[start] failed:", error);
  await shutdown(1);
});
