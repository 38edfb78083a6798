import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../lib/database-server/database-server";
import { prepareDatabase } from "../../lib/db/prepare-database";
import { freePort } from "./free-port";
import { makeDataDir, removeDataDir } from "./data-dir";

// One real PostgreSQL for the whole run; every test file gets its own database cloned
// from a migrated template (CREATE DATABASE … TEMPLATE takes ~50 ms), so files run in parallel.
export const TEMPLATE_DB = "swe_curator_template";

let stopServer: (() => Promise<void>) | undefined;
let dataDir: string | undefined;

export default async function setup(project: TestProject) {
  let baseUrl = process.env.TEST_DATABASE_BASE_URL;
  if (!baseUrl) {
    dataDir = makeDataDir("test-pg-");
    process.env.EMBEDDED_PG_FSYNC = "off";
    const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), quiet: true });
    baseUrl = server.baseUrl;
    stopServer = server.stop;
    process.env.TEST_DATABASE_BASE_URL = baseUrl;
    const admin = new pg.Client({ connectionString: `${baseUrl}/postgres` });
    await admin.connect();
    await admin.query(`drop database if exists ${TEMPLATE_DB}`);
    await admin.query(`create database ${TEMPLATE_DB}`);
    await admin.end();
    await prepareDatabase(`${baseUrl}/${TEMPLATE_DB}`);
  }
  project.provide("databaseBaseUrl", baseUrl);
  return async () => {
    await stopServer?.();
    if (dataDir) removeDataDir(dataDir);
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseBaseUrl: string;
  }
}
