import { afterAll, beforeAll } from "vitest";
import type { DemoTask } from "../../lib/environments/load-demo-environments";
import type { WorkerRunner } from "../../workers/runner";
import { createTestDatabase, type TestDatabase } from "./database";
import { loadDemoTasks } from "./demo-environments";
import { startTestWorker } from "./worker";

export type DemoWorker = { database: TestDatabase; worker: WorkerRunner; tasks: Record<string, DemoTask> };

/**
 * For a describe block: a fresh database with the demo tasks and a worker in this process
 * running their jobs on the machine's Docker engine. Read the fields inside tests.
 */
export function useDemoWorker(): DemoWorker {
  const context = {} as DemoWorker;
  beforeAll(async () => {
    context.database = await createTestDatabase();
    context.tasks = await loadDemoTasks(context.database.prisma);
    context.worker = await startTestWorker(context.database.url);
  });
  afterAll(async () => {
    await context.worker?.stop();
    await context.database?.drop();
  });
  return context;
}
