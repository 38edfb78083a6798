import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createPrismaClient, type PrismaClient } from "../../lib/db/client";

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

/**
 * A fresh, migrated database for one test file. It also becomes this file's DATABASE_URL,
 * so code under test that uses the shared `prisma` client talks to it.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const baseUrl = inject("databaseBaseUrl");
  const name = `test_${randomBytes(6).toString("hex")}`;
  await adminQuery(baseUrl, `create database ${name} template swe_curator_template`);
  const url = `${baseUrl}/${name}`;
  process.env.DATABASE_URL = url;
  const prisma = createPrismaClient(url, 5);
  return {
    url,
    prisma,
    async drop() {
      await prisma.$disconnect();
      const { prisma: shared } = await import("../../lib/db/client");
      await shared.$disconnect().catch(() => {});
      await adminQuery(baseUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
