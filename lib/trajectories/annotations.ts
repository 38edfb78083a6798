import { z } from "zod";
import type { Db, PrismaClient } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import type { BlindSet } from "../auth/blind";

// A curator labels or comments a step. Labels come from a set an admin configures (the
// Setting "trajectory.annotationLabels"), so the label page and the counts per reviewer model
// group like with like instead of spellings.

const LABELS_KEY = "trajectory.annotationLabels";
export const DEFAULT_ANNOTATION_LABELS = [
  "misread the code",
  "ran a reproducer",
  "accepted a symptom fix",
  "skipped the tests",
  "found the root cause",
];

export const AnnotationLabelsSchema = z.object({ labels: z.array(z.string().trim().min(1).max(60)).min(1).max(50) });

export async function annotationLabels(db: Db): Promise<string[]> {
  const row = await db.setting.findUnique({ where: { key: LABELS_KEY } });
  const parsed = AnnotationLabelsSchema.shape.labels.safeParse(row?.value);
  return parsed.success ? parsed.data : DEFAULT_ANNOTATION_LABELS;
}

export async function setAnnotationLabels(db: PrismaClient, actorId: string, labels: string[]) {
  const unique = [...new Set(labels)];
  const before = await annotationLabels(db);
  await db.$transaction(async (tx) => {
    await tx.setting.upsert({
      where: { key: LABELS_KEY },
      create: { key: LABELS_KEY, value: unique },
      update: { value: unique },
    });
    await auditLog(tx, {
      actorId,
      entityType: "setting",
      entityId: LABELS_KEY,
      action: "settings.updated",
      before,
      after: unique,
    });
  });
  return unique;
}

export const NewAnnotationSchema = z
  .object({
    stepIndex: z.number().int().min(0).describe("the step, from 0"),
    label: z.string().trim().min(1).max(60).optional().describe("one of the configured labels"),
    comment: z.string().trim().min(1).max(4000).optional(),
  })
  .refine((a) => a.label || a.comment, { message: "give a label, a comment or both", path: ["label"] });

const fieldError = (field: string, detail: string) =>
  new AppError("BAD_REQUEST", detail, undefined, [{ field, in: "body", pointer: `/${field}`, detail }]);

export async function annotateStep(
  db: PrismaClient,
  actorId: string,
  trajectoryId: string,
  input: z.infer<typeof NewAnnotationSchema>,
) {
  const step = await db.trajectoryStep.findUnique({
    where: { trajectoryId_index: { trajectoryId, index: input.stepIndex } },
    select: { id: true },
  });
  if (!step) throw notFound(`Step ${input.stepIndex + 1} of trajectory ${trajectoryId}`);
  if (input.label && !(await annotationLabels(db)).includes(input.label)) {
    throw fieldError(
      "label",
      `"${input.label}" is not one of the configured labels; pick one of them, or ask an admin to add it.`,
    );
  }
  return db.$transaction(async (tx) => {
    const created = await tx.stepAnnotation.create({
      data: {
        trajectoryId,
        stepIndex: input.stepIndex,
        label: input.label ?? null,
        comment: input.comment ?? null,
        authorId: actorId,
      },
      include: { author: { select: { name: true, email: true } } },
    });
    await auditLog(tx, {
      actorId,
      entityType: "trajectory",
      entityId: trajectoryId,
      action: "step.annotated",
      after: { stepIndex: input.stepIndex, label: created.label, comment: created.comment },
    });
    return created;
  });
}

export async function listTrajectoryAnnotations(db: Db, trajectoryId: string) {
  return db.stepAnnotation.findMany({
    where: { trajectoryId },
    orderBy: [{ stepIndex: "asc" }, { createdAt: "asc" }],
    take: 5_000,
    include: { author: { select: { name: true, email: true } } },
  });
}

/** Every label with how often it was given, per model of the trajectory (a reviewer model, or a solver's). */
export async function labelCounts(db: Db) {
  const rows = await db.$queryRaw<{ label: string; model: string | null; role: string; count: bigint }[]>`
    SELECT a.label, t.model, t.role::text AS role, count(*) AS count
    FROM step_annotations a JOIN trajectories t ON t.id = a.trajectory_id
    WHERE a.label IS NOT NULL GROUP BY a.label, t.model, t.role ORDER BY a.label, count(*) DESC`;
  const labels = await annotationLabels(db);
  return labels.map((label) => {
    const byModel = rows
      .filter((r) => r.label === label)
      .map((r) => ({ model: r.model ?? "unknown model", role: r.role, count: Number(r.count) }));
    return { label, count: byModel.reduce((sum, m) => sum + m.count, 0), byModel };
  });
}

export const LabelStepsQuerySchema = z.object({
  label: z.string().trim().min(1).max(60),
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** Every step given a label, across trajectories, newest first; not those on tasks `blind` hides (absent from lists). */
export async function stepsWithLabel(db: Db, query: z.infer<typeof LabelStepsQuerySchema>, blind: BlindSet) {
  const hidden = [...(await blind.ids())];
  const rows = await db.stepAnnotation.findMany({
    where: {
      label: query.label,
      ...(hidden.length ? { trajectory: { OR: [{ taskId: null }, { taskId: { notIn: hidden } }] } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
    ...(query.cursor ? { cursor: { id: query.cursor }, skip: 1 } : {}),
    include: {
      author: { select: { name: true, email: true } },
      trajectory: {
        select: { id: true, externalId: true, model: true, role: true, task: { select: { instanceId: true } } },
      },
    },
  });
  const page = rows.slice(0, query.limit);
  return { items: page, nextCursor: rows.length > query.limit ? page[page.length - 1].id : null };
}
