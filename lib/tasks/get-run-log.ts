import type { Db } from "../db/client";
import { notFound } from "../errors/app-error";

/** A validation run's log: the stored final log, or the live chunks while it runs. */
export async function getRunLog(db: Db, taskId: string, runId: string) {
  const run = await db.validationRun.findFirst({ where: { id: runId, taskId }, select: { id: true, status: true, log: true, logTruncated: true } });
  if (!run) throw notFound("That validation run");
  if (run.log !== null) return { runId, status: run.status, text: run.log, truncated: run.logTruncated };
  const chunks = await db.logChunk.findMany({ where: { runId }, orderBy: { seq: "asc" }, select: { content: true } });
  return { runId, status: run.status, text: chunks.map((c) => c.content).join(""), truncated: run.logTruncated };
}
