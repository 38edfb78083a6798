import type { PrismaClient } from "../../db/client";
import { getImportBatch, listImportBatches } from "../../imports/import-batches";
import { listWorkers } from "../../worker-runtime/list-workers";
import { api, type Connection } from "../connection";
import { EXIT, type ExitCode } from "../exit-codes";
import { toJsonData } from "../../json/bigint-json";
import { countsText, recordErrors, recordErrorText, type BatchView } from "../batch-view";

// What is going on: the latest imports, queued/running jobs and workers — or one import's report.

type Batch = BatchView & { startedAt: string | Date };
type Worker = {
  id: string;
  hostname: string;
  alive: boolean;
  runningJobs: number;
  concurrency: number;
  dockerOk: boolean;
  lastSeenAt: string | Date;
};

const when = (value: string | Date) => new Date(value).toISOString().replace("T", " ").slice(0, 19);
const line = (b: Batch) => `${b.id}\t${when(b.startedAt)}\t${b.status}\t${b.format}\t${countsText(b)}\t${b.fileName}`;

export async function statusCommand(
  connection: Connection,
  db: PrismaClient | null,
  batchId?: string,
): Promise<ExitCode> {
  const get = async <T>(path: string, direct: () => Promise<unknown>): Promise<T> =>
    (connection.mode === "server" ? await (await api(connection, path)).json() : toJsonData(await direct())) as T;
  process.stderr.write(`connected to ${connection.describe}\n`);
  if (batchId) {
    const batch = await get<Batch>(`/api/v1/imports/${batchId}`, () => getImportBatch(db!, batchId));
    process.stdout.write(line(batch) + "\n");
    if (batch.errorMessage) process.stdout.write(`  ${batch.errorMessage}\n`);
    for (const error of recordErrors(batch)) process.stdout.write(`  ${recordErrorText(error)}\n`);
    return batch.status === "SUCCEEDED" || batch.status === "RUNNING"
      ? EXIT.OK
      : batch.status === "PARTIAL"
        ? EXIT.PARTIAL
        : EXIT.FAILED;
  }
  const batches = await get<{ items: Batch[] }>("/api/v1/imports?limit=10", () =>
    listImportBatches(db!, { limit: 10 }),
  );
  process.stdout.write(`imports (latest ${batches.items.length})\n`);
  for (const b of batches.items) process.stdout.write(`  ${line(b)}\n`);
  const workers = (
    await get<{ items: Worker[] }>("/api/v1/workers?limit=200", async () => ({ items: await listWorkers(db!) }))
  ).items;
  process.stdout.write(`workers (${workers.filter((w) => w.alive).length} alive of ${workers.length})\n`);
  for (const w of workers)
    process.stdout.write(
      `  ${w.id}\t${w.hostname}\t${w.alive ? "alive" : "gone"}\tjobs=${w.runningJobs}/${w.concurrency}\tdocker=${w.dockerOk ? "ok" : "unavailable"}\tlast seen ${when(w.lastSeenAt)}\n`,
    );
  if (connection.mode === "database") {
    const [runs, builds] = await Promise.all([
      db!.validationRun.groupBy({ by: ["status"], where: { status: { in: ["QUEUED", "RUNNING"] } }, _count: true }),
      db!.build.groupBy({ by: ["status"], where: { status: { in: ["QUEUED", "RUNNING"] } }, _count: true }),
    ]);
    const count = (rows: { status: string; _count: number }[], status: string) =>
      rows.find((r) => r.status === status)?._count ?? 0;
    process.stdout.write(
      `jobs\n  validation runs: ${count(runs, "QUEUED")} queued, ${count(runs, "RUNNING")} running\n  builds: ${count(builds, "QUEUED")} queued, ${count(builds, "RUNNING")} running\n`,
    );
  }
  return EXIT.OK;
}
