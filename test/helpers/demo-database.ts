import { createTestDatabase, type TestDatabase } from "./database";
import { seedDemo } from "../../prisma/seed/seed-demo";
import { ensureAdmin } from "../../lib/users/ensure-admin";

/** A database of its own with the admin and the whole demo in it, as a fresh install's demo mode seeds it. */
export async function createDemoDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  await ensureAdmin(db.prisma, { ADMIN_PASSWORD: "demo-admin-password" });
  await seedDemo(db.prisma, { log: () => {}, env: { DEMO_PASSWORD: "demo-password" } });
  return db;
}
