import { z } from "zod";
import type { Db } from "../db/client";
import { AutomatedVerdict, DecisionVerdict } from "../db/enums";
import { listOf, NONE } from "../tasks/task-filters";
import { taskAgreement } from "../campaigns/agreement";
import { parseQuestions, type Answers } from "../campaigns/rubric";

// What a dataset release asks of each task on top of the selection (a view or a task-list
// query): its verdict, its latest curator decision, its campaign annotators' agreement. Every
// task the selection holds but a release filter refuses is counted under the first reason
// that refused it, so an export can say what it left out and why.
//
// The default is the safe one: validated only. A task approved (in a campaign, or by hand)
// but never validated is not a dataset task until a validation run says VALID.

const values = <T extends Record<string, string>>(e: T) => Object.values(e) as [T[keyof T], ...T[keyof T][]];
const flag = (fallback: boolean) =>
  z
    .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
    .default(fallback)
    .transform((v) => v === true || v === "true" || v === "1");

export const ReleaseFiltersSchema = z.object({
  /** only tasks whose verdict (a person's override, else the automated one) is VALID; default true */
  validatedOnly: flag(true),
  /** only these verdicts (the same effective verdict); empty: any */
  verdict: listOf(z.enum(values(AutomatedVerdict))),
  /** only tasks whose latest curator decision is one of these (NONE: nobody decided); empty: any */
  decision: listOf(z.enum([...values(DecisionVerdict), NONE])),
  /** only tasks whose campaign annotators agreed at least this much (0–1, lib/campaigns/agreement.ts taskAgreement) */
  agreement: z.coerce
    .number()
    .min(0, "agreement is a share from 0 to 1")
    .max(1, "agreement is a share from 0 to 1")
    .optional(),
});
export type ReleaseFilters = z.infer<typeof ReleaseFiltersSchema>;

/** No release filter at all: every task of the selection is exported. */
export const NO_RELEASE_FILTERS: ReleaseFilters = { validatedOnly: false, verdict: [], decision: [] };

export type ExclusionReport = {
  /** tasks the selection held */
  considered: number;
  exported: number;
  excluded: number;
  /** per reason, most first */
  reasons: { reason: string; count: number }[];
  /** "12 tasks excluded: 9 never validated, 3 verdict INVALID" */
  sentence: string;
};

type Judged = { id: string; verdict: AutomatedVerdict; decision: DecisionVerdict | null; agreement: number | null };

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
const percent = (share: number) => `${Math.round(share * 100)}%`;

function verdictReason(filters: ReleaseFilters, verdict: AutomatedVerdict): string | null {
  const allowed =
    (!filters.validatedOnly || verdict === "VALID") && (!filters.verdict.length || filters.verdict.includes(verdict));
  if (allowed) return null;
  return verdict === "PENDING" ? "never validated" : `verdict ${verdict}`;
}

function decisionReason(filters: ReleaseFilters, decision: DecisionVerdict | null): string | null {
  if (!filters.decision.length || filters.decision.includes(decision ?? NONE)) return null;
  return decision ? `latest decision ${decision}` : "no curator decision";
}

function agreementReason(filters: ReleaseFilters, agreement: number | null): string | null {
  if (filters.agreement === undefined) return null;
  if (agreement === null) return "not labelled by two campaign annotators";
  return agreement < filters.agreement ? `campaign agreement below ${percent(filters.agreement)}` : null;
}

/** Why a task is left out (the first filter that refuses it), or null when it is exported. */
export function exclusionReason(filters: ReleaseFilters, task: Omit<Judged, "id">): string | null {
  return (
    verdictReason(filters, task.verdict) ??
    decisionReason(filters, task.decision) ??
    agreementReason(filters, task.agreement)
  );
}

/** Counts exclusions as pages of tasks are judged. */
export class ExclusionTally {
  private considered = 0;
  private readonly counts = new Map<string, number>();

  count(reason: string | null): boolean {
    this.considered++;
    if (reason) this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
    return reason === null;
  }

  report(): ExclusionReport {
    const reasons = [...this.counts]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
    const excluded = reasons.reduce((sum, r) => sum + r.count, 0);
    const sentence = excluded
      ? `${plural(excluded, "task")} excluded: ${reasons.map((r) => `${r.count.toLocaleString("en-US")} ${r.reason}`).join(", ")}`
      : "No task excluded";
    return { considered: this.considered, exported: this.considered - excluded, excluded, reasons, sentence };
  }
}

/** The lowest agreement of each task over the campaigns that labelled it twice or more (a task is as doubtful as its worst campaign). */
async function agreementByTask(db: Db, ids: string[]): Promise<Map<string, number>> {
  const labels = await db.campaignLabel.findMany({
    where: { taskId: { in: ids }, gold: false, submittedAt: { not: null } },
    select: { taskId: true, campaignId: true, answers: true, rubricVersion: { select: { id: true, questions: true } } },
  });
  const groups = new Map<string, { questions: unknown; answers: Answers[] }>();
  for (const label of labels) {
    const key = `${label.campaignId}\u0000${label.taskId}`;
    const group = groups.get(key) ?? { questions: label.rubricVersion.questions, answers: [] };
    group.answers.push((label.answers ?? {}) as Answers);
    groups.set(key, group);
  }
  const lowest = new Map<string, number>();
  for (const [key, group] of groups) {
    const value = taskAgreement(parseQuestions(group.questions), group.answers);
    if (value === null) continue;
    const taskId = key.split("\u0000")[1];
    lowest.set(taskId, Math.min(value, lowest.get(taskId) ?? 1));
  }
  return lowest;
}

/** The facts the release filters judge, for one page of task ids (in their order). */
export async function judgeTasks(db: Db, ids: string[], filters: ReleaseFilters): Promise<Judged[]> {
  const tasks = await db.task.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      automatedVerdict: true,
      verdictOverride: true,
      decisions: { orderBy: { createdAt: "desc" }, take: 1, select: { verdict: true } },
    },
  });
  const agreements = filters.agreement === undefined ? new Map<string, number>() : await agreementByTask(db, ids);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return ids.flatMap((id) => {
    const task = byId.get(id);
    if (!task) return [];
    return [
      {
        id,
        verdict: task.verdictOverride ?? task.automatedVerdict,
        decision: task.decisions[0]?.verdict ?? null,
        agreement: agreements.get(id) ?? null,
      },
    ];
  });
}

/** Whether any release filter is on (otherwise judging can be skipped). */
export const filtersAnything = (f: ReleaseFilters) =>
  f.validatedOnly || f.verdict.length > 0 || f.decision.length > 0 || f.agreement !== undefined;
