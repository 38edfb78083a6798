import { z } from "zod";
import type { Db, PrismaClient } from "../db/client";
import { DecisionReason, DecisionVerdict, type AutomatedVerdict, type CurationStatus } from "../db/enums";
import { AppError, notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import { updateTaskAtVersion } from "../tasks/task-version";
import { approvalsRequired } from "./settings";
import { latestDecisionsByTask } from "../metrics/curator-agreement";
import { decisionProblem, overridesAutomated, statusFromDecisions } from "./decision-rules";
import { evidenceFingerprint } from "./evidence";

export const DecisionInputSchema = z.object({
  verdict: z.enum(DecisionVerdict),
  reasons: z.array(z.enum(DecisionReason)).max(8).default([]),
  comment: z.string().trim().max(10_000).optional(),
  /** why the decision contradicts the automated verdict; required exactly when it does */
  justification: z.string().trim().max(5_000).optional(),
  /** the curator confirmed deciding a task no validation has judged yet (the page asks for it) */
  confirmedWithoutValidation: z.boolean().optional(),
  /** the Task.version the curator was looking at */
  version: z.number().int().min(1),
});
export type DecisionInput = z.input<typeof DecisionInputSchema>;

function checkDecision(input: z.infer<typeof DecisionInputSchema>, automated: AutomatedVerdict) {
  const problem = decisionProblem(input, automated);
  if (problem)
    throw new AppError(
      "UNPROCESSABLE",
      problem,
      overridesAutomated(input.verdict, automated) ? { field: "justification" } : undefined,
    );
}

/** Records a curator's approve / reject / needs-changes, recomputes the task's status and audits it, all or nothing. */
export async function recordDecision(db: PrismaClient, actor: { id: string }, taskId: string, rawInput: DecisionInput) {
  const input = DecisionInputSchema.parse(rawInput);
  return db.$transaction(async (tx) => {
    const task = await tx.task.findUnique({
      where: { id: taskId },
      select: {
        id: true,
        automatedVerdict: true,
        verdictOverride: true,
        curationStatus: true,
        version: true,
        leasedById: true,
      },
    });
    if (!task) throw notFound(`Task ${taskId}`);
    const automated = task.verdictOverride ?? task.automatedVerdict;
    const isOverride = overridesAutomated(input.verdict, automated);
    // a decision with no automated verdict behind it is kept apart in the audit log, with whether the curator confirmed it
    const withoutValidation =
      automated === "PENDING"
        ? { withoutValidation: true, confirmedWithoutValidation: input.confirmedWithoutValidation === true }
        : {};
    checkDecision(input, automated);
    // hold the environment's row (before the task's, the order a recipe save takes them): a
    // recipe saved or an image pinned meanwhile either commits first (we read its evidence) or
    // waits for this decision (its trigger then sees the decision and marks it stale)
    await tx.$executeRaw`SELECT 1 FROM environments e JOIN tasks t ON t.environment_id = e.id WHERE t.id = ${taskId} FOR SHARE OF e`;
    // claim the version first: a concurrent decision on the same version loses here
    const version = await updateTaskAtVersion(tx, taskId, input.version, {});
    // bound to what it was made on: when any of it changes, the database marks it stale
    const snapshot = await evidenceFingerprint(tx, taskId);
    const decision = await tx.curationDecision.create({
      data: {
        taskId,
        curatorId: actor.id,
        verdict: input.verdict,
        reasons: input.reasons,
        comment: input.comment || null,
        overridesAutomated: isOverride,
        justification: isOverride ? input.justification : null,
        evidence: snapshot?.evidence,
        evidenceFingerprint: snapshot?.fingerprint,
      },
    });
    const curationStatus = await recomputeStatus(tx, taskId);
    const releaseLease = task.leasedById === actor.id ? { leasedById: null, leaseExpiresAt: null } : {};
    await tx.task.update({ where: { id: taskId }, data: { curationStatus, ...releaseLease } });
    await auditLog(tx, {
      actorId: actor.id,
      entityType: "task",
      entityId: taskId,
      action: isOverride ? "task.decided_overriding_automation" : "task.decided",
      before: { curationStatus: task.curationStatus, version: task.version },
      after: {
        curationStatus,
        version,
        verdict: input.verdict,
        reasons: input.reasons,
        comment: input.comment ?? null,
        evidenceFingerprint: snapshot?.fingerprint ?? null,
        ...withoutValidation,
        ...(isOverride ? { automatedVerdict: automated, justification: input.justification } : {}),
      },
    });
    return { decision, curationStatus, version };
  });
}

/** The task's status from its decisions that still hold (a stale one was made on evidence that changed since). */
export async function recomputeStatus(db: Db, taskId: string): Promise<CurationStatus> {
  const decisions = await db.curationDecision.findMany({
    where: { taskId, staleAt: null },
    select: { taskId: true, curatorId: true, verdict: true, reasons: true, createdAt: true },
  });
  const latest = [...(latestDecisionsByTask(decisions).get(taskId)?.values() ?? [])].map((d) => d.verdict);
  return statusFromDecisions(latest, await approvalsRequired(db));
}
