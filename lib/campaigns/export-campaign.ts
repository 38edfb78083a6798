import { z } from "zod";
import type { Db } from "../db/client";
import { loadCampaign } from "./access";
import { outcomeOf } from "./outcome";
import type { CombinedValue } from "./combine";
import type { Answers, RubricQuestion } from "./rubric";
import { toCsv, type CsvValue } from "../csv/csv";

// A campaign's finished tasks as rows a filtered split can be cut from: SWE-bench Verified's
// columns (underspecified, false_negative = test validity, other_major_issues, difficulty,
// filter_out) beside every rubric question's combined answer and each annotator's label.

export const CampaignExportQuerySchema = z.object({ format: z.enum(["jsonl", "csv"]).default("jsonl") });

const VERIFIED_COLUMNS: Record<string, string> = {
  underspecified: "underspecified",
  tests_valid: "false_negative",
  major_issue: "other_major_issues",
};

function levelLabel(question: RubricQuestion | undefined, value: CombinedValue): string | null {
  if (!question || question.type !== "scale" || typeof value !== "number") return null;
  return question.levels.find((l) => l.value === Math.round(value))?.label ?? null;
}

export async function campaignExportRows(db: Db, campaignId: string): Promise<Record<string, unknown>[]> {
  const campaign = await loadCampaign(db, campaignId);
  const [tasks, labels, adjudications] = await Promise.all([
    db.campaignTask.findMany({
      where: { campaignId, gold: false },
      include: {
        task: {
          select: {
            instanceId: true,
            environment: { select: { repository: { select: { owner: true, name: true } } } },
          },
        },
      },
    }),
    db.campaignLabel.findMany({
      where: { campaignId, gold: false, submittedAt: { not: null } },
      include: { annotator: { select: { email: true } }, rubricVersion: { select: { version: true } } },
      orderBy: { submittedAt: "asc" },
    }),
    db.campaignAdjudication.findMany({ where: { campaignId } }),
  ]);
  const difficulty = campaign.questions.find((q) => q.key === "difficulty");
  return tasks
    .map((ct) => ({ ct, taskLabels: labels.filter((l) => l.taskId === ct.taskId) }))
    .filter(({ taskLabels }) => taskLabels.length >= campaign.overlap)
    .sort((a, b) => a.ct.task.instanceId.localeCompare(b.ct.task.instanceId))
    .map(({ ct, taskLabels }) => {
      const adjudication = adjudications.find((a) => a.taskId === ct.taskId);
      const outcome = outcomeOf(
        campaign,
        taskLabels.map((l) => l.answers as Answers),
        (adjudication?.answers as Answers | undefined) ?? null,
      );
      const verified = Object.fromEntries(
        Object.entries(VERIFIED_COLUMNS)
          .filter(([key]) => key in outcome.combined)
          .map(([key, column]) => [column, outcome.combined[key]]),
      );
      return {
        instance_id: ct.task.instanceId,
        repo: `${ct.task.environment.repository.owner}/${ct.task.environment.repository.name}`,
        ...verified,
        ...(difficulty ? { difficulty: levelLabel(difficulty, outcome.combined.difficulty) } : {}),
        filter_out: outcome.dropped,
        drop_reasons: outcome.reasons,
        adjudicated: outcome.adjudicated,
        campaign: campaign.name,
        rubric: `${campaign.rubricName} v${campaign.rubricVersion}`,
        combination: campaign.combination,
        rubric_answers: outcome.combined,
        labels: taskLabels.map((l) => ({
          annotator: l.annotator.email,
          rubric_version: l.rubricVersion.version,
          answers: l.answers,
        })),
      };
    });
}

export function campaignRowsToCsv(rows: Record<string, unknown>[]): string {
  const columns = rows.length ? Object.keys(rows[0]) : ["instance_id"];
  return toCsv(
    columns,
    rows.map((row) => columns.map((c) => row[c] as CsvValue)),
  );
}

export async function campaignExportResponse(db: Db, campaignId: string, format: "jsonl" | "csv"): Promise<Response> {
  const rows = await campaignExportRows(db, campaignId);
  const body =
    format === "csv"
      ? campaignRowsToCsv(rows)
      : rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length ? "\n" : "");
  return new Response(body, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
      "content-disposition": `attachment; filename="campaign-${campaignId}.${format}"`,
    },
  });
}
