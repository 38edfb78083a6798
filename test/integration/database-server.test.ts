import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/free-port";
import { DatabaseInUseError, openDatabase, startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { makeDataDir, removeDataDir } from "../helpers/data-dir";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = makeDataDir("test-restart-");
afterAll(() => removeDataDir(dataDir));

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("the embedded database", () => {
  it("keeps its data across a stop and a start on the same folder", async () => {
    const first = await startEmbeddedPostgres({ dataDir, port: await freePort(), quiet: true });
    await query(
      `${first.baseUrl}/postgres`,
      "create table kept (note text); insert into kept values ('survives a restart')",
    );
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir, port: await freePort(), quiet: true });
    try {
      expect(await query(`${second.baseUrl}/postgres`, "select note from kept")).toEqual([
        { note: "survives a restart" },
      ]);
    } finally {
      await second.stop();
    }
  });

  it("refuses a second server on a data folder in use, with a message that says so", async () => {
    const running = await startEmbeddedPostgres({ dataDir, port: await freePort(), quiet: true });
    try {
      const second = startEmbeddedPostgres({ dataDir, port: await freePort(), quiet: true });
      await expect(second).rejects.toBeInstanceOf(DatabaseInUseError);
      await expect(second).rejects.toThrow(/already in use/);
      // the running server is unharmed
      expect(await query(`${running.baseUrl}/postgres`, "select count(*)::int as n from kept")).toEqual([{ n: 1 }]);
    } finally {
      await running.stop();
    }
  });

  it("uses DATABASE_URL when it is set and starts nothing", async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = "postgresql://someone@db.example.internal:5432/curation";
    try {
      const handle = await openDatabase({ dataDir: path.join(dataDir, "never-created") });
      expect(handle).toMatchObject({ url: "postgresql://someone@db.example.internal:5432/curation", embedded: false });
      expect(existsSync(path.join(dataDir, "never-created"))).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  });
});
