import { z } from "zod";
import type { PrismaClient } from "../db/client";
import { AutomatedVerdict } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";

export const OverrideVerdictSchema = z.object({
  /** null clears the override: the automated verdict stands again */
  verdict: z.enum(AutomatedVerdict).nullable(),
  justification: z.string().trim().min(10, "Say why in at least 10 characters: the next curator will read it").max(4000),
  /** the task version the curator saw; a stale one is refused */
  version: z.number().int().positive().optional(),
});
export type OverrideVerdictInput = z.infer<typeof OverrideVerdictSchema>;

/** A curator's override of the automated verdict, justified and audited. */
export async function overrideVerdict(db: PrismaClient, input: OverrideVerdictInput & { taskId: string; actorId: string }) {
  return db.$transaction(async (tx) => {
    const before = await tx.task.findUnique({
      where: { id: input.taskId },
      select: { id: true, version: true, automatedVerdict: true, verdictOverride: true, overrideJustification: true },
    });
    if (!before) throw notFound("The task");
    if (input.version !== undefined && input.version !== before.version) {
      throw new AppError("CONFLICT", "Someone changed this task since you opened it; reload and try again", { currentVersion: before.version });
    }
    const after = await tx.task.update({
      where: { id: before.id },
      data: { verdictOverride: input.verdict, overrideJustification: input.verdict ? input.justification : null, version: { increment: 1 } },
      select: { id: true, version: true, automatedVerdict: true, verdictOverride: true, overrideJustification: true },
    });
    await auditLog(tx, {
      actorId: input.actorId,
      entityType: "task",
      entityId: before.id,
      action: input.verdict ? "verdict.override" : "verdict.override_cleared",
      before: { verdictOverride: before.verdictOverride, overrideJustification: before.overrideJustification, automatedVerdict: before.automatedVerdict },
      after: { verdictOverride: after.verdictOverride, overrideJustification: after.overrideJustification, justification: input.justification },
    });
    return after;
  });
}
