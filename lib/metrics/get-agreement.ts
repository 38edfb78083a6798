import { z } from "zod";
import type { Db } from "../db/client";
import { DecisionReason } from "../db/enums";
import { computeAgreement } from "./curator-agreement";
import { visibleOnly, type BlindSet } from "../auth/blind";

export const AgreementQuerySchema = z.object({
  since: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "use YYYY-MM-DD")
    .optional(),
});

const MAX_DISAGREEMENTS = 200;

/** Inter-curator agreement over all decisions (optionally since a day) but those on tasks `blind` hides, with names and the disagreeing tasks. */
export async function getAgreement(db: Db, query: z.infer<typeof AgreementQuerySchema>, blind: BlindSet) {
  const all = await db.curationDecision.findMany({
    where: query.since ? { createdAt: { gte: new Date(`${query.since}T00:00:00Z`) } } : {},
    select: { taskId: true, curatorId: true, verdict: true, reasons: true, createdAt: true },
  });
  const decisions = await visibleOnly(blind, all, (d) => d.taskId);
  const report = computeAgreement(decisions, Object.values(DecisionReason));
  const [users, tasks] = await Promise.all([
    db.user.findMany({ where: { id: { in: report.curators } }, select: { id: true, name: true, email: true } }),
    db.task.findMany({
      where: { id: { in: report.disagreements.slice(0, MAX_DISAGREEMENTS).map((d) => d.taskId) } },
      select: { id: true, instanceId: true, curationStatus: true },
    }),
  ]);
  const name = (id: string) => {
    const user = users.find((u) => u.id === id);
    return user?.name ?? user?.email ?? id;
  };
  return {
    decisions: decisions.length,
    tasksWithSeveralCurators: report.tasksWithSeveralCurators,
    overall: report.overall,
    curators: report.curators.map((id) => ({ id, name: name(id) })),
    pairs: report.pairs.map((p) => ({ ...p, nameA: name(p.curatorA), nameB: name(p.curatorB) })),
    reasons: report.reasons,
    disagreementCount: report.disagreements.length,
    disagreements: report.disagreements.slice(0, MAX_DISAGREEMENTS).map((d) => {
      const task = tasks.find((t) => t.id === d.taskId);
      return {
        ...d,
        instanceId: task?.instanceId ?? d.taskId,
        curationStatus: task?.curationStatus ?? null,
        verdicts: d.verdicts.map((v) => ({ ...v, name: name(v.curatorId) })),
      };
    }),
  };
}
export type AgreementResponse = Awaited<ReturnType<typeof getAgreement>>;
