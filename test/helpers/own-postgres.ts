import { readFileSync } from "node:fs";
import path from "node:path";
import { ensureDatabaseExists, startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { prepareDatabase } from "../../lib/db/prepare-database";
import { makeDataDir, removeDataDir } from "./data-dir";
import { freePort } from "./free-port";

export type OwnPostgres = {
  url: string;
  dataDir: string;
  /** stops the server the hard way, by its postmaster pid (SIGINT: fast shutdown, SIGQUIT: immediate), and waits until it is gone */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** starts it again on the same data and port */
  restart(): Promise<void>;
  close(): Promise<void>;
};

function postmasterPid(dataDir: string): number | null {
  try {
    return Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]) || null;
  } catch {
    return null;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops a PostgreSQL by its postmaster pid (SIGINT: fast shutdown, SIGQUIT: immediate) and waits until it is gone. */
export async function killPostmaster(dataDir: string, signal: NodeJS.Signals = "SIGINT") {
  const pid = postmasterPid(dataDir);
  if (!pid) throw new Error(`no postmaster.pid in ${dataDir}`);
  process.kill(pid, signal);
  // a postmaster that ignores the signal must fail the test with a reason, not hang it until vitest's timeout
  const deadline = Date.now() + 60_000;
  while (alive(pid)) {
    if (Date.now() > deadline)
      throw new Error(`PostgreSQL (pid ${pid}, ${dataDir}) was still running 60 s after ${signal}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A PostgreSQL of the test's own (never the shared test server), migrated, that the test may
 * stop and start under the code it tests. fsync stays on: what was committed must survive.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dataDir = makeDataDir("fault-pg-");
  const port = await freePort();
  const start = () => startEmbeddedPostgres({ dataDir, port, quiet: true });
  let server = await start();
  const url = `${server.baseUrl}/swe_curator`;
  await ensureDatabaseExists(url);
  await prepareDatabase(url);
  return {
    url,
    dataDir,
    kill: (signal) => killPostmaster(dataDir, signal),
    async restart() {
      server = await start();
    },
    async close() {
      const pid = postmasterPid(dataDir);
      if (pid && alive(pid)) await server.stop().catch(() => {});
      removeDataDir(dataDir);
    },
  };
}
