import { z } from "zod";
import type { Db } from "../db/client";
import { auditLog } from "../audit/audit-log";
import { AppError } from "../errors/app-error";
import {
  DEFAULT_RUBRIC_NAME,
  DEFAULT_RUBRIC_QUESTIONS,
  parseQuestions,
  RubricQuestionsSchema,
  type RubricQuestion,
} from "./rubric";

// Rubrics by name; saving questions under an existing name adds a version, so answers given
// under an earlier version keep pointing at the questions they answered.

export const SaveRubricSchema = z.object({
  name: z.string().trim().min(1).max(200),
  questions: RubricQuestionsSchema,
});
export type SaveRubricInput = z.input<typeof SaveRubricSchema>;

export type RubricVersionView = {
  id: string;
  rubricId: string;
  name: string;
  version: number;
  questions: RubricQuestion[];
};

/** Adds a version of the rubric (creating the rubric on its first save). */
export async function saveRubricVersion(
  db: Db,
  actorId: string | null,
  input: z.infer<typeof SaveRubricSchema>,
): Promise<RubricVersionView> {
  const rubric = await db.rubric.upsert({ where: { name: input.name }, create: { name: input.name }, update: {} });
  const latest = await db.rubricVersion.findFirst({ where: { rubricId: rubric.id }, orderBy: { version: "desc" } });
  const version = await db.rubricVersion.create({
    data: {
      rubricId: rubric.id,
      version: (latest?.version ?? 0) + 1,
      questions: input.questions,
      createdById: actorId,
    },
  });
  await auditLog(db, {
    actorId,
    entityType: "rubric",
    entityId: rubric.id,
    action: "rubric.version",
    after: { version: version.version },
  });
  return {
    id: version.id,
    rubricId: rubric.id,
    name: rubric.name,
    version: version.version,
    questions: input.questions,
  };
}

/** The default rubric's latest version, created on first use. */
export async function defaultRubricVersion(db: Db): Promise<RubricVersionView> {
  const existing = await db.rubricVersion.findFirst({
    where: { rubric: { name: DEFAULT_RUBRIC_NAME } },
    orderBy: { version: "desc" },
  });
  if (existing)
    return {
      id: existing.id,
      rubricId: existing.rubricId,
      name: DEFAULT_RUBRIC_NAME,
      version: existing.version,
      questions: parseQuestions(existing.questions),
    };
  return saveRubricVersion(db, null, { name: DEFAULT_RUBRIC_NAME, questions: DEFAULT_RUBRIC_QUESTIONS });
}

/** Every rubric with its latest version (the default one included). */
export async function listRubrics(db: Db): Promise<RubricVersionView[]> {
  await defaultRubricVersion(db);
  const rubrics = await db.rubric.findMany({
    orderBy: { name: "asc" },
    include: { versions: { orderBy: { version: "desc" }, take: 1 } },
  });
  return rubrics.map((r) => ({
    id: r.versions[0].id,
    rubricId: r.id,
    name: r.name,
    version: r.versions[0].version,
    questions: parseQuestions(r.versions[0].questions),
  }));
}

export async function getRubricVersion(db: Db, id: string): Promise<RubricVersionView> {
  const version = await db.rubricVersion.findUnique({ where: { id }, include: { rubric: true } });
  if (!version) throw new AppError("NOT_FOUND", `Rubric version ${id} was not found; pick one from the rubric list`);
  return {
    id: version.id,
    rubricId: version.rubricId,
    name: version.rubric.name,
    version: version.version,
    questions: parseQuestions(version.questions),
  };
}
