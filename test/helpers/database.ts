import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createPrismaClient, disconnectSharedPrisma, type PrismaClient } from "../../lib/db/client";

export type TestDatabase = { url: string; prisma: PrismaClient; drop(): Promise<void> };

async function adminQuery(baseUrl: string, sql: string) {
  const admin = new pg.Client({ connectionString: `${baseUrl}/postgres` });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

// Postgres refuses to copy a template while another session is connected to it, which a
// parallel file's clone can be for an instant: retry briefly.
async function cloneTemplate(baseUrl: string, name: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await adminQuery(baseUrl, `create database ${name} template swe_curator_template`);
    } catch (error) {
      if (attempt >= 20 || !String(error).includes("being accessed by other users")) throw error;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
}

/**
 * A fresh, migrated database for one test file. It also becomes this file's DATABASE_URL,
 * so code under test that uses the shared `prisma` client talks to it.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const baseUrl = inject("databaseBaseUrl");
  const name = `test_${randomBytes(6).toString("hex")}`;
  await cloneTemplate(baseUrl, name);
  const url = `${baseUrl}/${name}`;
  process.env.DATABASE_URL = url;
  const prisma = createPrismaClient(url, 5);
  return {
    url,
    prisma,
    async drop() {
      await prisma.$disconnect();
      await disconnectSharedPrisma().catch(() => {});
      await adminQuery(baseUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
