import { z } from "zod";
import type { Db, PrismaClient } from "../db/client";
import { auditLog } from "../audit/audit-log";
import { AppError } from "../errors/app-error";
import { filtersFromSearchParams } from "../tasks/task-filters";
import { taskWhere } from "../tasks/task-list-sql";
import { sql } from "../db/sql";
import { COMBINATIONS, DEFAULT_DROP_RULE, DropRuleSchema, dropRuleProblems } from "./combine";
import { defaultRubricVersion, getRubricVersion, type RubricVersionView } from "./rubrics";
import { validateAnswers, type RubricQuestion } from "./rubric";
import { withResolvedSlice } from "../analytics/resolve-slice";
import { can } from "../auth/permissions";

// A campaign takes its tasks from a saved view once, when it is created, so the set it
// promises N labels for does not move under the annotators' feet.

const MAX_TASKS = 20_000;

export const GoldTaskSchema = z.object({
  taskId: z.string().min(1),
  /** the reference answers, checked against the rubric */
  reference: z.record(z.string(), z.unknown()),
  explanation: z.string().trim().min(1, "explain the reference answers").max(5_000),
});

export const CreateCampaignSchema = z.object({
  name: z.string().trim().min(1, "name the campaign").max(200),
  /** a rubric version; the default rubric (SWE-bench Verified's questions) when omitted */
  rubricVersionId: z.string().optional(),
  /** a saved task view of the caller's, or a task list query string */
  viewId: z.string().optional(),
  viewQuery: z.string().max(4_000).optional(),
  annotatorIds: z.array(z.string()).min(1, "pick at least one annotator").max(200),
  overlap: z.number().int().min(1).max(20),
  combination: z.enum(COMBINATIONS).default("MOST_SEVERE"),
  /** when to drop a task; SWE-bench Verified's rule for the default rubric when omitted */
  dropRule: DropRuleSchema.optional(),
  blind: z.boolean().default(true),
  hideVerdict: z.boolean().default(true),
  /** share of gold answers (0–1) a new annotator must match before real tasks; omitted: no gold onboarding */
  goldThreshold: z.number().min(0).max(1).nullable().optional(),
  gold: z.array(GoldTaskSchema).max(200).default([]),
});
export type CreateCampaignInput = z.input<typeof CreateCampaignSchema>;

async function viewQueryOf(db: Db, actorId: string, input: z.infer<typeof CreateCampaignSchema>): Promise<string> {
  if (input.viewId) {
    const view = await db.savedView.findFirst({ where: { id: input.viewId, userId: actorId, scope: "tasks" } });
    if (!view)
      throw new AppError(
        "BAD_REQUEST",
        "The saved view was not found among your task views; save the task list as a view first",
        undefined,
        [{ field: "viewId", in: "body", pointer: "/viewId", detail: "no such saved task view of yours" }],
      );
    return view.query;
  }
  if (input.viewQuery !== undefined) return input.viewQuery.replace(/^\?/, "");
  throw new AppError(
    "BAD_REQUEST",
    "Say which tasks the campaign covers: a saved view (viewId) or a task list query (viewQuery)",
  );
}

async function tasksOfView(db: Db, query: string): Promise<string[]> {
  const filters = filtersFromSearchParams(new URLSearchParams(query));
  const { text, values } =
    sql`SELECT t.id FROM tasks t WHERE ${taskWhere(filters, await withResolvedSlice(db, filters.slice, {}))} ORDER BY t.created_at, t.id LIMIT ${MAX_TASKS + 1}`.toQuery();
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(text, ...values);
  if (rows.length > MAX_TASKS)
    throw new AppError(
      "UNPROCESSABLE",
      `The view holds more than ${MAX_TASKS} tasks; narrow it before starting a campaign on it`,
    );
  return rows.map((r) => r.id);
}

function bodyError(field: string, detail: string) {
  return new AppError("UNPROCESSABLE", detail, undefined, [
    { field, in: "body", pointer: `/${field.replace(/\./g, "/")}`, detail },
  ]);
}

async function checkAnnotators(db: Db, ids: string[], overlap: number) {
  const unique = [...new Set(ids)];
  const users = await db.user.findMany({
    where: { id: { in: unique }, disabled: false },
    select: { id: true, role: true },
  });
  const missing = unique.filter((id) => !users.some((u) => u.id === id));
  if (missing.length)
    throw bodyError("annotatorIds", `Annotators ${missing.join(", ")} are unknown or disabled; pick active users`);
  const viewers = users.filter((u) => !can(u.role, "campaigns:annotate"));
  if (viewers.length)
    throw bodyError(
      "annotatorIds",
      `Annotators need the CURATOR role; ${viewers.map((u) => u.id).join(", ")} only view`,
    );
  if (overlap > unique.length)
    throw bodyError(
      "overlap",
      `Overlap ${overlap} needs at least ${overlap} annotators (each task's labels come from different people); add annotators or lower the overlap`,
    );
  return unique;
}

function checkGold(questions: RubricQuestion[], gold: z.infer<typeof GoldTaskSchema>[]) {
  return gold.map((g, index) => {
    const { answers, errors } = validateAnswers(questions, g.reference);
    if (errors.length)
      throw bodyError(`gold.${index}.reference`, `Gold task ${index + 1}: ${errors.map((e) => e.detail).join("; ")}`);
    return { ...g, reference: answers };
  });
}

export async function createCampaign(db: PrismaClient, actor: { id: string }, raw: CreateCampaignInput) {
  const input = CreateCampaignSchema.parse(raw);
  const rubric: RubricVersionView = input.rubricVersionId
    ? await getRubricVersion(db, input.rubricVersionId)
    : await defaultRubricVersion(db);
  const dropRule = input.dropRule ?? (input.rubricVersionId ? { any: [] } : DEFAULT_DROP_RULE);
  const problems = dropRuleProblems(dropRule, rubric.questions);
  if (problems.length) throw bodyError("dropRule", `The drop rule does not fit the rubric: ${problems.join("; ")}`);
  const annotators = await checkAnnotators(db, input.annotatorIds, input.overlap);
  const gold = checkGold(rubric.questions, input.gold);
  if (gold.length && input.goldThreshold == null)
    throw bodyError(
      "goldThreshold",
      "A gold set needs the agreement an annotator must reach on it (goldThreshold, 0–1)",
    );
  const viewQuery = await viewQueryOf(db, actor.id, input);
  const goldIds = new Set(gold.map((g) => g.taskId));
  const taskIds = (await tasksOfView(db, viewQuery)).filter((id) => !goldIds.has(id));
  if (taskIds.length === 0)
    throw bodyError("viewQuery", "The view holds no tasks; pick a view that lists the tasks to annotate");
  if (goldIds.size && (await db.task.count({ where: { id: { in: [...goldIds] } } })) !== goldIds.size)
    throw bodyError("gold", "A gold task id is unknown; pick existing tasks");
  if (await db.campaign.findUnique({ where: { name: input.name } }))
    throw new AppError("CONFLICT", `A campaign named "${input.name}" exists; choose another name`);

  return db.$transaction(async (tx) => {
    const campaign = await tx.campaign.create({
      data: {
        name: input.name,
        rubricVersionId: rubric.id,
        overlap: input.overlap,
        combination: input.combination,
        dropRule,
        blind: input.blind,
        hideVerdict: input.hideVerdict,
        goldThreshold: gold.length ? input.goldThreshold : null,
        viewQuery,
        createdById: actor.id,
      },
    });
    await tx.campaignTask.createMany({ data: taskIds.map((taskId) => ({ campaignId: campaign.id, taskId })) });
    await tx.campaignTask.createMany({
      data: gold.map((g) => ({
        campaignId: campaign.id,
        taskId: g.taskId,
        gold: true,
        reference: g.reference,
        explanation: g.explanation,
      })),
    });
    await tx.campaignAnnotator.createMany({ data: annotators.map((userId) => ({ campaignId: campaign.id, userId })) });
    await auditLog(tx, {
      actorId: actor.id,
      entityType: "campaign",
      entityId: campaign.id,
      action: "campaign.create",
      after: { name: campaign.name, tasks: taskIds.length, gold: gold.length, overlap: input.overlap },
    });
    return {
      id: campaign.id,
      name: campaign.name,
      tasks: taskIds.length,
      gold: gold.length,
      annotators: annotators.length,
    };
  });
}
