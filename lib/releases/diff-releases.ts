import type { Db } from "../db/client";
import type { BlindSet } from "../auth/blind";
import { changedEvidenceParts, EVIDENCE_PART_LABELS, type EvidencePart } from "../curation/evidence";
import {
  findRelease,
  releaseTasks,
  type ReleaseDecision,
  type ReleaseSummary,
  type ReleaseTaskRow,
} from "./read-releases";

// Two releases compared task by task: added (only in the later), removed (only in the
// earlier), changed (in both, with a different evidence fingerprint or different decisions),
// each with the reasons a person reads: which evidence part, how the decisions differ.

export type ChangedTask = {
  taskId: string;
  instanceId: string;
  evidenceParts: EvidencePart[];
  decisionChanged: boolean;
  why: string[];
};
export type ReleaseDiff = {
  from: ReleaseSummary;
  to: ReleaseSummary;
  added: { taskId: string; instanceId: string; why: string[] }[];
  removed: { taskId: string; instanceId: string; why: string[] }[];
  changed: ChangedTask[];
  unchanged: number;
};

const decisionKey = (decisions: ReleaseDecision[]) =>
  decisions
    .map((d) => `${d.curator}:${d.verdict}:${[...d.reasons].sort().join("+")}`)
    .sort()
    .join("|");
const describeDecisions = (decisions: ReleaseDecision[]) =>
  decisions.map((d) => `${d.verdict.toLowerCase().replace("_", " ")} by ${d.curator}`).join(", ") || "none";

/** Why one task differs between two releases, or null when it does not. */
export function compareReleaseTask(before: ReleaseTaskRow, after: ReleaseTaskRow): ChangedTask | null {
  const evidenceParts =
    before.evidenceFingerprint === after.evidenceFingerprint
      ? []
      : changedEvidenceParts(before.evidence, after.evidence);
  const decisionChanged = decisionKey(before.decisions) !== decisionKey(after.decisions);
  if (!evidenceParts.length && !decisionChanged) return null;
  const why = [
    ...(evidenceParts.length
      ? [`evidence changed: ${evidenceParts.map((part) => EVIDENCE_PART_LABELS[part]).join(", ")}`]
      : []),
    ...(decisionChanged
      ? [`decision changed: ${describeDecisions(before.decisions)} → ${describeDecisions(after.decisions)}`]
      : []),
  ];
  return { taskId: after.taskId, instanceId: after.instanceId, evidenceParts, decisionChanged, why };
}

/** Why a task left the curated set: the reason its decisions went stale, or what it is now. */
async function whyRemoved(db: Db, taskIds: string[]): Promise<Map<string, string[]>> {
  const tasks = await db.task.findMany({
    where: { id: { in: taskIds } },
    select: {
      id: true,
      curationStatus: true,
      decisions: {
        where: { staleReason: { not: null } },
        orderBy: { staleAt: "desc" },
        take: 1,
        select: { staleReason: true },
      },
    },
  });
  const why = new Map<string, string[]>();
  for (const task of tasks) {
    const stale = task.decisions[0]?.staleReason;
    why.set(task.id, [
      `now ${task.curationStatus.toLowerCase().replace("_", " ")}`,
      ...(stale ? [`decision went stale: ${stale}`] : []),
    ]);
  }
  return why;
}

/** The diff from one release to another (either order; both by id or name). */
export async function diffReleases(
  db: Db,
  fromIdOrName: string,
  toIdOrName: string,
  blind: BlindSet,
): Promise<ReleaseDiff> {
  const [from, to] = [await findRelease(db, fromIdOrName), await findRelease(db, toIdOrName)];
  const [before, after] = [await releaseTasks(db, from.id, blind), await releaseTasks(db, to.id, blind)];
  const beforeById = new Map(before.map((row) => [row.taskId, row]));
  const afterIds = new Set(after.map((row) => row.taskId));
  const removedRows = before.filter((row) => !afterIds.has(row.taskId));
  const removedWhy = await whyRemoved(
    db,
    removedRows.map((row) => row.taskId),
  );
  const changed: ChangedTask[] = [];
  let unchanged = 0;
  for (const row of after) {
    const previous = beforeById.get(row.taskId);
    if (!previous) continue;
    const change = compareReleaseTask(previous, row);
    if (change) changed.push(change);
    else unchanged++;
  }
  return {
    from,
    to,
    added: after
      .filter((row) => !beforeById.has(row.taskId))
      .map((row) => ({
        taskId: row.taskId,
        instanceId: row.instanceId,
        why: [`approved: ${describeDecisions(row.decisions)}`],
      })),
    removed: removedRows.map((row) => ({
      taskId: row.taskId,
      instanceId: row.instanceId,
      why: removedWhy.get(row.taskId) ?? ["the task no longer exists"],
    })),
    changed,
    unchanged,
  };
}
