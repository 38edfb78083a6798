import type { Db } from "../db/client";
import { auditLog } from "../audit/audit-log";

export type NewRevision = {
  environmentId: string;
  number: number;
  dockerfile: string;
  evalScript: string;
  reason: string;
  authorId: string | null;
  contextHash?: string;
};

/**
 * Writes an environment's next revision and makes it current — a recipe is never
 * overwritten, whether a curator edits it, an import brings a changed one or the demo
 * loads its first. With `audit`, records the change under the author. Call inside the
 * caller's transaction: (environment_id, number) is unique, so of two writers from the
 * same base only one lands.
 */
export async function addEnvironmentRevision(
  db: Db,
  revision: NewRevision,
  audit?: { action: string; before: unknown; after: unknown },
) {
  const created = await db.environmentRevision.create({ data: revision });
  // a written recipe is what the environment runs from now on, whatever it ran before (an image, a spec, nothing)
  await db.environment.update({
    where: { id: revision.environmentId },
    data: { currentRevisionId: created.id, imageSource: "RECIPE" },
  });
  if (audit)
    await auditLog(db, {
      actorId: revision.authorId,
      entityType: "environment",
      entityId: revision.environmentId,
      ...audit,
    });
  return created;
}
