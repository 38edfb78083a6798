import type { Db } from "../db/client";
import { notFound } from "../errors/app-error";
import type { BlindSet } from "../auth/blind";
import type { Evidence } from "../curation/evidence";

// The one read of releases for the pages and the API alike. A reader blind on a task
// (lib/auth/blind.ts) gets the release without that task: its decisions would tell its verdict.

export type ReleaseDecision = {
  id: string;
  curator: string;
  verdict: string;
  reasons: string[];
  fingerprint: string | null;
  at: string;
};
export type ReleaseTaskRow = {
  taskId: string;
  instanceId: string;
  evidenceFingerprint: string;
  evidence: Evidence;
  verdicts: Record<string, string | null>;
  decisions: ReleaseDecision[];
};
export type ReleaseSummary = {
  id: string;
  name: string;
  description: string | null;
  taskCount: number;
  createdByEmail: string | null;
  createdAt: Date;
};

const SUMMARY = {
  id: true,
  name: true,
  description: true,
  taskCount: true,
  createdByEmail: true,
  createdAt: true,
} as const;

/** Every release, newest first. */
export async function listReleases(db: Db): Promise<ReleaseSummary[]> {
  return db.release.findMany({ select: SUMMARY, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

/** The newest release, or null before the first one. */
export async function latestRelease(db: Db): Promise<ReleaseSummary | null> {
  return db.release.findFirst({ select: SUMMARY, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

/** A release by id or name. */
export async function findRelease(db: Db, idOrName: string): Promise<ReleaseSummary> {
  const release = await db.release.findFirst({
    where: { OR: [{ id: idOrName }, { name: idOrName }] },
    select: SUMMARY,
  });
  if (!release) throw notFound(`The release "${idOrName}"`);
  return release;
}

/** A release's tasks in instance-id order, without those the reader is blind on. */
export async function releaseTasks(db: Db, releaseId: string, blind: BlindSet): Promise<ReleaseTaskRow[]> {
  const hidden = await blind.ids();
  const rows = await db.releaseTask.findMany({ where: { releaseId }, orderBy: { instanceId: "asc" } });
  return rows
    .filter((row) => !hidden.has(row.taskId))
    .map((row) => ({
      taskId: row.taskId,
      instanceId: row.instanceId,
      evidenceFingerprint: row.evidenceFingerprint,
      evidence: row.evidence as Evidence,
      verdicts: row.verdicts as Record<string, string | null>,
      decisions: row.decisions as ReleaseDecision[],
    }));
}

/** A release with its tasks. */
export async function getRelease(db: Db, idOrName: string, blind: BlindSet) {
  const release = await findRelease(db, idOrName);
  return { ...release, tasks: await releaseTasks(db, release.id, blind) };
}
