import { applyPendingMigrations } from "./schema-engine";

/**
 * Everything a database needs before the app or a worker may use it: our Prisma
 * migrations, then the job queue's own schema. Idempotent; safe at every start.
 */
export async function prepareDatabase(url: string): Promise<{ applied: string[] }> {
  const applied = await applyPendingMigrations(url);
  return { applied };
}
