import { runMigrations } from "graphile-worker";
import { queueLogger } from "./queue-logger";
import { applyPendingMigrations } from "./schema-engine";

/**
 * Everything a database needs before the app or a worker may use it: our Prisma
 * migrations, then the job queue's own schema. Idempotent; safe at every start.
 */
export async function prepareDatabase(url: string): Promise<{ applied: string[] }> {
  const applied = await applyPendingMigrations(url);
  // graphile-worker keeps its tables in its own schema (graphile_worker); installing it here
  // lets the web process enqueue (graphile_worker.add_job) before any worker has started.
  await runMigrations({ connectionString: url, logger: queueLogger });
  return { applied };
}
