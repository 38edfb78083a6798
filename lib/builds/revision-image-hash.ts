import type { Db } from "../db/client";
import { revisionBuildContext } from "./revision-build-context";

/**
 * The build-context hash of a revision's image, stored on the revision the first time it
 * is worked out, so a validation can be enqueued with its image's flag (engines holding
 * that image get the first chance at it). Null when the recipe's files are unreadable:
 * the run then fails with that reason on whichever worker takes it.
 */
export async function revisionImageHash(db: Db, revisionId: string): Promise<string | null> {
  const revision = await db.environmentRevision.findUniqueOrThrow({
    where: { id: revisionId },
    select: { contextHash: true, dockerfile: true, environment: { select: { contextFiles: true, memoryMb: true } } },
  });
  if (revision.contextHash) return revision.contextHash;
  let contextHash: string;
  try {
    contextHash = revisionBuildContext(revision).contextHash;
  } catch {
    return null;
  }
  await db.environmentRevision.update({ where: { id: revisionId }, data: { contextHash } });
  return contextHash;
}
