import pg from "pg";
import { inject } from "vitest";

/** One short-lived connection to the e2e server's own database, for what a test sets up or looks up directly. */
export async function withE2eDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject("e2eDatabaseUrl") });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The id of a task the demo seed imported, by its instance id. */
export function demoTaskId(instanceId: string): Promise<string> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>("select id from tasks where instance_id = $1", [instanceId]);
    if (!rows[0]) throw new Error(`the demo seed has no task ${instanceId}`);
    return rows[0].id;
  });
}
