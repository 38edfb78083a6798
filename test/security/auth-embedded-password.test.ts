import { rmSync, statSync, readFileSync, unlinkSync } from "node:fs";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/free-port";
import { makeDataDir } from "../helpers/data-dir";
import { embeddedPasswordFile, startEmbeddedPostgres } from "../../lib/database-server/database-server";

// Issue 10, item 9: the embedded PostgreSQL had the same password on every install, so
// anyone on the machine (or who read the source) could connect to any install's data.

const folders = [makeDataDir("sec-pg-a-"), makeDataDir("sec-pg-b-")];
afterAll(() =>
  folders.forEach((dir) =>
    [dir, embeddedPasswordFile(dir)].forEach((p) => rmSync(p, { recursive: true, force: true })),
  ),
);

async function connects(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: `${url}/postgres` });
  try {
    await client.connect();
    return true;
  } catch (error) {
    expect(String(error)).toMatch(/password authentication failed/);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const legacyUrl = (port: number) => `postgresql://swe_curator:swe_curator_local@127.0.0.1:${port}`;
const portOf = (url: string) => Number(new URL(url).port);

describe("the embedded database password", () => {
  it("is generated per data folder, kept 0600, and the old shared password does not connect", async () => {
    const passwords: string[] = [];
    for (const dir of folders) {
      const server = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), quiet: true });
      try {
        expect(await connects(server.baseUrl)).toBe(true);
        expect(await connects(legacyUrl(portOf(server.baseUrl)))).toBe(false);
      } finally {
        await server.stop();
      }
      expect(statSync(embeddedPasswordFile(dir)).mode & 0o777).toBe(0o600);
      passwords.push(readFileSync(embeddedPasswordFile(dir), "utf8").trim());
    }
    expect(passwords[0]).not.toBe(passwords[1]);
    expect(passwords[0].length).toBeGreaterThanOrEqual(32);
  });

  it("moves a cluster made with the old shared password to its own on the next start", async () => {
    const dir = folders[0];
    const first = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), quiet: true });
    const admin = new pg.Client({ connectionString: `${first.baseUrl}/postgres` });
    await admin.connect();
    await admin.query("alter role swe_curator password 'swe_curator_local'"); // as an older install left it
    await admin.end();
    await first.stop();
    unlinkSync(embeddedPasswordFile(dir));

    const upgraded = await startEmbeddedPostgres({ dataDir: dir, port: await freePort(), quiet: true });
    try {
      expect(await connects(upgraded.baseUrl)).toBe(true);
      expect(await connects(legacyUrl(portOf(upgraded.baseUrl)))).toBe(false);
      expect(statSync(embeddedPasswordFile(dir)).mode & 0o777).toBe(0o600);
    } finally {
      await upgraded.stop();
    }
  });
});
