import { z } from "zod";
import type { PrismaClient } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import { updateTaskAtVersion } from "../tasks/task-version";

export const OverrideVerdictInputSchema = z.object({
  /** the verdict people assert instead of automation's; null removes the override */
  verdict: z.enum(["VALID", "INVALID", "FLAKY"]).nullable(),
  justification: z.string().trim().max(5_000).optional(),
  version: z.number().int().min(1),
});
export type OverrideVerdictInput = z.input<typeof OverrideVerdictInputSchema>;

/** Replaces automation's verdict with a person's, which needs a written justification; audited. */
export async function overrideVerdict(
  db: PrismaClient,
  actor: { id: string },
  taskId: string,
  rawInput: OverrideVerdictInput,
) {
  const input = OverrideVerdictInputSchema.parse(rawInput);
  if (input.verdict !== null && (input.justification ?? "").length < 10) {
    throw new AppError(
      "UNPROCESSABLE",
      "Overriding the automated verdict needs a justification of at least 10 characters",
      { field: "justification" },
    );
  }
  return db.$transaction(async (tx) => {
    const task = await tx.task.findUnique({
      where: { id: taskId },
      select: { automatedVerdict: true, verdictOverride: true, overrideJustification: true, version: true },
    });
    if (!task) throw notFound(`Task ${taskId}`);
    const version = await updateTaskAtVersion(tx, taskId, input.version, {
      verdictOverride: input.verdict,
      overrideJustification: input.verdict === null ? null : input.justification,
    });
    await auditLog(tx, {
      actorId: actor.id,
      entityType: "task",
      entityId: taskId,
      action: input.verdict === null ? "task.override_removed" : "task.verdict_overridden",
      before: {
        automatedVerdict: task.automatedVerdict,
        verdictOverride: task.verdictOverride,
        justification: task.overrideJustification,
        version: task.version,
      },
      after: {
        automatedVerdict: task.automatedVerdict,
        verdictOverride: input.verdict,
        justification: input.justification ?? null,
        version,
      },
    });
    return { version };
  });
}
