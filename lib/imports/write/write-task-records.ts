import type { Db, Prisma } from "../../db/client";
import { auditLog } from "../../audit/audit-log";
import type { TaskRecord } from "../records/task-record";
import type { WriteResult } from "../import-records";
import type { ImportRun } from "../import-run";
import { PLACEHOLDER_REASON, placeholderRecipe, publishedImageReason, sourceOfRecord } from "./placeholder-recipe";
import { changedFields, sameValue } from "./compare";
import { bulkInsert, newId } from "./bulk-insert";
import { linkWaitingTrajectories } from "./write-trajectory";
import { addEnvironmentRevision } from "../../environments/add-revision";

// Writes task records idempotently on their natural keys — Repository (owner, name),
// Environment key, Task instanceId — inside the caller's transaction: new rows are
// inserted in bulk, changed tasks are updated one by one with an AuditEvent, equal ones
// are left alone. Curation state (status, decisions, labels) is never touched by an import.
// Trajectories imported before their task are linked to it as it arrives.

const unique = <T>(values: T[]) => [...new Set(values)];

async function repositoryIds(tx: Db, records: TaskRecord[]) {
  const byKey = new Map(records.map((r) => [`${r.repository.owner}/${r.repository.name}`, r.repository]));
  const repos = [...byKey.values()];
  await tx.repository.createMany({ data: repos, skipDuplicates: true });
  const rows = await tx.repository.findMany({
    where: { OR: repos.map(({ owner, name }) => ({ owner, name })) },
    select: { id: true, owner: true, name: true },
  });
  return new Map(rows.map((r) => [`${r.owner}/${r.name}`, r.id]));
}

type EnvironmentRow = {
  id: string;
  key: string;
  contextFiles?: unknown;
  imageSource?: string;
  currentRevision: { number: number; dockerfile: string; evalScript: string } | null;
};

async function environmentIds(tx: Db, records: TaskRecord[], run: ImportRun) {
  const repoIds = await repositoryIds(tx, records);
  const firstByKey = new Map<string, TaskRecord>();
  for (const r of records) if (!firstByKey.has(r.environment.key)) firstByKey.set(r.environment.key, r);
  const keys = [...firstByKey.keys()];
  const select = {
    id: true,
    key: true,
    contextFiles: true,
    imageSource: true,
    currentRevision: { select: { number: true, dockerfile: true, evalScript: true } },
  } as const;
  const existing: EnvironmentRow[] = await tx.environment.findMany({ where: { key: { in: keys } }, select });
  const known = new Set(existing.map((e) => e.key));
  const missing = keys.filter((k) => !known.has(k)).map((k) => firstByKey.get(k)!);
  if (missing.length) {
    const now = new Date().toISOString();
    const rows = missing.map((r) => ({
      ...sourceColumns(r),
      id: newId(),
      key: r.environment.key,
      repository_id: repoIds.get(`${r.repository.owner}/${r.repository.name}`)!,
      base_commit: r.environment.baseCommit,
      setup_commit: r.environment.setupCommit,
      version: r.environment.version,
      source: r.environment.source,
      context_files: r.environment.contextFiles ?? null,
      metadata: r.environment.recipe ? r.environment.metadata : { ...r.environment.metadata, placeholderRecipe: true },
      updated_at: now,
    }));
    // a concurrent import may have created some of them: those are skipped here and read back below
    const created = await bulkInsert<{ id: string; key: string }>(tx, "environments", ENVIRONMENT_COLUMNS, rows, {
      onConflict: "key",
      returning: ["id", "key"],
    });
    const recordByKey = new Map(missing.map((r) => [r.environment.key, r]));
    await bulkInsert(
      tx,
      "environment_revisions",
      REVISION_COLUMNS,
      created.map((e) => {
        const record = recordByKey.get(e.key)!;
        const recipe = record.environment.recipe ?? placeholderRecipe(record);
        return {
          id: newId(),
          environment_id: e.id,
          number: 1,
          dockerfile: recipe.dockerfile,
          eval_script: recipe.evalScript,
          reason: revisionReason(record, run),
          author_id: run.actorId,
          updated_at: now,
        };
      }),
    );
    await tx.$executeRaw`
      update environments e set current_revision_id = r.id
      from environment_revisions r
      where r.environment_id = e.id and r.number = 1 and e.id = any(${created.map((e) => e.id)}::text[])`;
    if (created.length < missing.length) {
      const raced = await tx.environment.findMany({
        where: { key: { in: missing.map((r) => r.environment.key).filter((k) => !created.some((c) => c.key === k)) } },
        select,
      });
      existing.push(...raced);
    }
    for (const e of created) existing.push({ id: e.id, key: e.key, currentRevision: null });
  }
  for (const env of existing) {
    const record = firstByKey.get(env.key)!;
    await adoptPublishedImage(tx, env, record, run);
    const recipe = record.environment.recipe;
    if (
      recipe &&
      env.currentRevision &&
      (env.currentRevision.dockerfile !== recipe.dockerfile || env.currentRevision.evalScript !== recipe.evalScript)
    ) {
      await addRevision(tx, env, recipe, run);
    }
    const contextFiles = record.environment.contextFiles;
    if (contextFiles && env.currentRevision && !sameValue(env.contextFiles, contextFiles)) {
      await tx.environment.update({ where: { id: env.id }, data: { contextFiles } });
      await auditLog(tx, {
        actorId: run.actorId,
        entityType: "environment",
        entityId: env.id,
        action: "import.context",
        before: { files: Object.keys((env.contextFiles as Record<string, string> | null) ?? {}) },
        after: { files: Object.keys(contextFiles), importBatchId: run.batchId },
      });
    }
  }
  return new Map(existing.map((e) => [e.key, e.id]));
}

/** A changed recipe in the file is a new revision, never an overwrite. */
async function addRevision(
  tx: Db,
  env: EnvironmentRow,
  recipe: { dockerfile: string; evalScript: string },
  run: ImportRun,
) {
  const number = env.currentRevision!.number + 1;
  await addEnvironmentRevision(
    tx,
    {
      environmentId: env.id,
      number,
      dockerfile: recipe.dockerfile,
      evalScript: recipe.evalScript,
      reason: `imported from ${run.fileName}`,
      authorId: run.actorId,
    },
    {
      action: "import.revision",
      before: { revision: env.currentRevision!.number },
      after: { revision: number, importBatchId: run.batchId },
    },
  );
}

function sourceColumns(record: TaskRecord) {
  const { imageSource, imageReference } = sourceOfRecord(record);
  return { image_source: imageSource, image_reference: imageReference };
}

function revisionReason(record: TaskRecord, run: ImportRun) {
  if (record.environment.recipe) return `imported from ${run.fileName}`;
  const { imageReference } = sourceOfRecord(record);
  return imageReference ? publishedImageReason(imageReference) : PLACEHOLDER_REASON;
}

/** An environment with nothing usable takes the image a newly imported row names: a way forward, never a downgrade. */
async function adoptPublishedImage(tx: Db, env: EnvironmentRow, record: TaskRecord, run: ImportRun) {
  if (env.imageSource !== "NONE") return;
  const { imageSource, imageReference } = sourceOfRecord(record);
  if (imageSource !== "IMAGE") return;
  await tx.environment.update({
    where: { id: env.id },
    data: { imageSource, imageReference, imageDigest: null, imageId: null },
  });
  await auditLog(tx, {
    actorId: run.actorId,
    entityType: "environment",
    entityId: env.id,
    action: "import.image",
    before: { imageSource: "NONE" },
    after: { imageSource, imageReference, importBatchId: run.batchId },
  });
}

const ENVIRONMENT_COLUMNS = [
  "image_source",
  "image_reference",
  "id",
  "key",
  "repository_id",
  "base_commit",
  "setup_commit",
  "version",
  "source",
  "context_files",
  "metadata",
  "updated_at",
] as const;
const REVISION_COLUMNS = [
  "id",
  "environment_id",
  "number",
  "dockerfile",
  "eval_script",
  "reason",
  "author_id",
  "updated_at",
] as const;
const TASK_COLUMNS = [
  "id",
  "instance_id",
  "environment_id",
  "kind",
  "source",
  "difficulty",
  "problem_statement",
  "hints_text",
  "fix_patch",
  "test_patch",
  "fail_to_pass",
  "pass_to_pass",
  "issue_created_at",
  "metadata",
  "import_batch_id",
  "updated_at",
] as const;

const TASK_FIELDS = [
  "environmentId",
  "kind",
  "source",
  "difficulty",
  "problemStatement",
  "hintsText",
  "fixPatch",
  "testPatch",
  "failToPass",
  "passToPass",
  "issueCreatedAt",
  "metadata",
] as const;

export async function writeTaskRecords(tx: Db, records: TaskRecord[], run: ImportRun): Promise<WriteResult[]> {
  const envIds = await environmentIds(tx, records, run);
  const rows = records.map((r) => ({
    instanceId: r.instanceId,
    ...r.task,
    environmentId: envIds.get(r.environment.key)!,
  }));
  const now = new Date().toISOString();
  const existing = await tx.task.findMany({
    where: { instanceId: { in: unique(rows.map((r) => r.instanceId)) } },
    select: { id: true, instanceId: true, ...Object.fromEntries(TASK_FIELDS.map((f) => [f, true])) } as Record<
      string,
      true
    >,
  });
  const byInstance = new Map(
    existing.map((t) => [t.instanceId as unknown as string, t as unknown as Record<string, unknown>]),
  );
  const results: WriteResult[] = [];
  const toCreate: Record<string, unknown>[] = [];
  for (const row of rows) {
    const current = byInstance.get(row.instanceId);
    if (!current) {
      toCreate.push({
        id: newId(),
        instance_id: row.instanceId,
        environment_id: row.environmentId,
        kind: row.kind,
        source: row.source,
        difficulty: row.difficulty,
        problem_statement: row.problemStatement,
        hints_text: row.hintsText,
        fix_patch: row.fixPatch,
        test_patch: row.testPatch,
        fail_to_pass: row.failToPass,
        pass_to_pass: row.passToPass,
        issue_created_at: row.issueCreatedAt?.toISOString() ?? null,
        metadata: row.metadata,
        import_batch_id: run.batchId,
        updated_at: now,
      });
      results.push("created");
      continue;
    }
    const changed = changedFields(current, row, TASK_FIELDS);
    if (!changed.length) {
      results.push("unchanged");
      continue;
    }
    const data = Object.fromEntries(changed.map((f) => [f, row[f]]));
    await tx.task.update({
      where: { id: current.id as string },
      data: {
        ...data,
        metadata: row.metadata as Prisma.InputJsonValue,
        version: { increment: 1 },
        importBatchId: run.batchId,
      },
    });
    await auditLog(tx, {
      actorId: run.actorId,
      entityType: "task",
      entityId: current.id as string,
      action: "import.update",
      before: Object.fromEntries(changed.map((f) => [f, current[f]])),
      after: { ...data, importBatchId: run.batchId },
    });
    results.push("updated");
  }
  await bulkInsert(tx, "tasks", TASK_COLUMNS, toCreate);
  await linkWaitingTrajectories(
    tx,
    toCreate.map((t) => ({ id: t.id as string, instanceId: t.instance_id as string })),
  );
  return results;
}
