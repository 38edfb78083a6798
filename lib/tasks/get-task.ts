import type { Db } from "../db/client";
import { notFound } from "../errors/app-error";
import { renderMarkdown } from "./render-markdown";

const userName = { select: { id: true, name: true, email: true } } as const;

/**
 * Everything the task page shows in one read (validation runs load in the validation panel):
 * the task, its recipe, patches, trajectories, decisions, and its approvals against the
 * number required (a curation setting the caller reads: lib/curation/get-task-detail.ts).
 */
export async function getTask(db: Db, idOrInstanceId: string, approvalsRequired: number) {
  const task = await db.task.findFirst({
    where: { OR: [{ id: idOrInstanceId }, { instanceId: idOrInstanceId }] },
    include: {
      assignee: userName,
      leasedBy: userName,
      environment: {
        include: {
          repository: true,
          currentRevision: { include: { author: userName } },
          revisions: {
            orderBy: { number: "desc" },
            select: { id: true, number: true, reason: true, createdAt: true, author: userName },
          },
        },
      },
      candidatePatches: {
        orderBy: { generator: "asc" },
        select: { id: true, generator: true, patch: true, resolved: true, createdAt: true },
      },
      trajectories: {
        orderBy: { createdAt: "desc" },
        select: {
          id: true,
          role: true,
          format: true,
          model: true,
          decision: true,
          confidence: true,
          stepCount: true,
          exitStatus: true,
          candidatePatchId: true,
        },
      },
      decisions: { orderBy: { createdAt: "desc" }, include: { curator: userName } },
    },
  });
  if (!task) throw notFound(`Task ${idOrInstanceId}`);
  return {
    ...task,
    problemStatementHtml: renderMarkdown(task.problemStatement),
    hintsHtml: task.hintsText ? renderMarkdown(task.hintsText) : null,
    approvals: { required: approvalsRequired, count: countCurrentApprovals(task.decisions) },
  };
}

/** Curators whose latest decision on the task is APPROVE. */
export function countCurrentApprovals(
  decisions: readonly { curatorId: string; verdict: string; createdAt: Date; staleAt?: Date | null }[],
): number {
  const latest = new Map<string, { verdict: string; createdAt: Date }>();
  // a stale decision was made on evidence that changed since: it counts for nothing
  for (const d of decisions.filter((decision) => !decision.staleAt)) {
    const seen = latest.get(d.curatorId);
    if (!seen || seen.createdAt < d.createdAt) latest.set(d.curatorId, d);
  }
  return [...latest.values()].filter((d) => d.verdict === "APPROVE").length;
}
