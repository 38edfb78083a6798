import type { PrismaClient } from "../db/client";
import { auditLog } from "../audit/audit-log";
import { notFound } from "../errors/app-error";

async function setWorkerDrain(db: PrismaClient, workerId: string, drain: boolean): Promise<boolean> {
  const { count } = await db.workerHeartbeat.updateMany({ where: { id: workerId }, data: { drainRequested: drain } });
  return count === 1;
}

/** Asks a worker to finish its jobs and take no new ones (drain: false lets it take work again); audited. */
export async function drainWorker(db: PrismaClient, input: { workerId: string; drain: boolean; actorId: string }) {
  if (!(await setWorkerDrain(db, input.workerId, input.drain))) throw notFound(`Worker ${input.workerId}`);
  await auditLog(db, {
    actorId: input.actorId,
    entityType: "worker",
    entityId: input.workerId,
    action: input.drain ? "drain_requested" : "drain_lifted",
    after: { drain: input.drain },
  });
  return { workerId: input.workerId, drainRequested: input.drain };
}
