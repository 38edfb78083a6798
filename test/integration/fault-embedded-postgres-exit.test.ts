import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedServer } from "@/lib/database-server/database-server";
import { superviseEmbeddedPostgres } from "@/lib/database-server/supervise-embedded-postgres";
import { makeDataDir, removeDataDir } from "../helpers/data-dir";
import { freePort } from "../helpers/free-port";
import { killPostmaster } from "../helpers/own-postgres";
import { waitFor } from "../helpers/worker";

// Issue 11 item 1: `npm start` notices when its embedded database exits, starts it again,
// and stops with a sentence when it keeps dying. Its own PostgreSQL, never the shared one.
describe("npm start's embedded PostgreSQL exits", () => {
  const dataDir = makeDataDir("fault-exit-pg-");
  let supervisor: { stop(): Promise<void> } | undefined;
  afterAll(async () => {
    await supervisor?.stop().catch(() => {});
    removeDataDir(dataDir);
  });

  const answers = async (baseUrl: string) => {
    const client = new pg.Client({ connectionString: `${baseUrl}/postgres` });
    try {
      await client.connect();
      return (await client.query("select 1 as one")).rows[0].one === 1;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  };

  it("is started again when killed, and given up on with a sentence when it keeps dying", async () => {
    const port = await freePort();
    const start = () => startEmbeddedPostgres({ dataDir, port, quiet: true });
    const first: EmbeddedServer = await start();
    const lines: string[] = [];
    let gaveUp: string | undefined;
    supervisor = superviseEmbeddedPostgres(
      first,
      start,
      { log: (line) => lines.push(line), giveUp: (reason) => (gaveUp = reason) },
      { maxRestarts: 2, withinMs: 60_000 },
    );

    for (let death = 1; death <= 2; death++) {
      await killPostmaster(dataDir, "SIGKILL");
      await waitFor(
        `the server to be back after death ${death}`,
        async () => lines.filter((line) => line.includes("is back")).length === death,
        30_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; the supervisor said: ${[...lines, gaveUp ?? "(nothing more)"].join(" | ")}`);
      });
      expect(await answers(first.baseUrl)).toBe(true);
    }
    expect(lines[0]).toMatch(/exited \(killed by SIGKILL\); starting it again/);

    await killPostmaster(dataDir, "SIGKILL");
    await waitFor("the supervisor to give up", async () => gaveUp, 10_000);
    expect(gaveUp).toMatch(/exited \(killed by SIGKILL\) 3 times within 60 s; not restarting it again/);
    expect(await answers(first.baseUrl)).toBe(false);
  });
});
