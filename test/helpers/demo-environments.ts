import path from "node:path";
import type { Db } from "../../lib/db/client";
import { loadDemoEnvironments, type DemoTask } from "../../lib/environments/load-demo-environments";

export const DEMO_DIR = path.resolve(import.meta.dirname, "../../prisma/seed/demo");

/** Loads prisma/seed/demo into a test database; returns the tasks by instance id. */
export async function loadDemoTasks(db: Db): Promise<Record<string, DemoTask>> {
  const tasks = await loadDemoEnvironments(db, DEMO_DIR);
  return Object.fromEntries(tasks.map((task) => [task.instanceId, task]));
}
