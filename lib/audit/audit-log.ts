import type { Db, Prisma } from "../db/client";
import { toJsonData } from "../json/bigint-json";

export type AuditInput = {
  actorId: string | null;
  entityType: string;
  entityId: string;
  action: string;
  before?: unknown;
  after?: unknown;
};

const asJson = (value: unknown) => (value === undefined ? undefined : toJsonData<Prisma.InputJsonValue>(value));

/** Records who did what to which entity, with its state before and after. Call inside the write's transaction. */
export async function auditLog(db: Db, event: AuditInput) {
  await db.auditEvent.create({
    data: {
      actorId: event.actorId,
      entityType: event.entityType,
      entityId: event.entityId,
      action: event.action,
      before: asJson(event.before),
      after: asJson(event.after),
    },
  });
}
