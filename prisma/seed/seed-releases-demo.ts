import type { PrismaClient } from "../../lib/db/client";
import { recordDecision } from "../../lib/curation/record-decision";
import { createRelease } from "../../lib/releases/create-release";

// The releases demo: release demo-v1 of four approved tasks, then the evidence of two of them
// changes (a new candidate patch each: their approvals go stale, back to the review queue with
// the reason), one is approved again, a second curator approves another, a fifth task is
// approved, and release demo-v2 is cut. The diff demo-v1 → demo-v2 then shows a task added,
// one removed (its decision stale, with why) and two changed (evidence; decision).
// It uses the analytics demo's tasks on the calculator, which no walkthrough decides, and
// never touches a recipe the other demos validate with.

const FIRST = [
  "demo-gen__calc-1-empty-raises",
  "demo-gen__calc-1-empty-zero",
  "demo-gen__calc-1-two-values",
  "demo-flow__calc-mode",
];
const ADDED = "demo-flow__calc-median";
const DEMO_AGENT = "demo-release-agent";

async function approve(db: PrismaClient, curator: { id: string }, taskId: string) {
  const { version } = await db.task.findUniqueOrThrow({ where: { id: taskId }, select: { version: true } });
  await recordDecision(db, curator, taskId, { verdict: "APPROVE", version, confirmedWithoutValidation: true });
}

/** A candidate patch by the demo agent (the task's own fix): new evidence for the task's decisions. */
async function addCandidate(db: PrismaClient, task: { id: string; fixPatch: string }) {
  await db.candidatePatch.create({ data: { taskId: task.id, generator: DEMO_AGENT, patch: task.fixPatch } });
}

/** Seeds the two demo releases once; does nothing when a release exists or the tasks are missing. */
export async function seedReleasesDemo(db: PrismaClient, log: (line: string) => void): Promise<void> {
  if ((await db.release.count()) > 0) return;
  const curator = await db.user.findFirst({ where: { role: "CURATOR" }, orderBy: { createdAt: "asc" } });
  const admin = await db.user.findFirst({ where: { role: "ADMIN" }, orderBy: { createdAt: "asc" } });
  const tasks = await db.task.findMany({
    where: { instanceId: { in: [...FIRST, ADDED] } },
    select: { id: true, instanceId: true, fixPatch: true },
  });
  const byInstance = new Map(tasks.map((task) => [task.instanceId, task]));
  const [stale, reapproved, secondOpinion, unchanged] = FIRST.map((id) => byInstance.get(id));
  const added = byInstance.get(ADDED);
  if (!curator || !admin || !stale || !reapproved || !secondOpinion || !unchanged || !added)
    return log("[seed] releases demo skipped: its users or tasks are missing");

  for (const task of [stale, reapproved, secondOpinion, unchanged]) await approve(db, curator, task.id);
  await createRelease(db, curator, { name: "demo-v1", description: "The first four approved calculator tasks" });

  await addCandidate(db, stale);
  await addCandidate(db, reapproved);
  await approve(db, curator, reapproved.id);
  await approve(db, admin, secondOpinion.id);
  await approve(db, curator, added.id);
  await createRelease(db, curator, {
    name: "demo-v2",
    description: "A task added, one dropped as its approval went stale, two changed",
  });
  log(`[seed] releases demo-v1 and demo-v2; ${stale.instanceId}'s approval is stale (a new candidate patch)`);
}
