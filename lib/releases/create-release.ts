import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { PrismaClient } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";

// A release snapshots the curated set: every APPROVED task with the evidence it stands on
// (task_evidence, its fingerprint, the controls' verdicts) and the decisions that still hold.
// One INSERT … SELECT reads and writes it, so a decision landing meanwhile is either in or out,
// never half. The database refuses any later UPDATE or DELETE (migration 20261206040000).

export const RELEASE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;
export const CURATED_QUERY = "status=APPROVED";

export const CreateReleaseSchema = z
  .object({
    name: z
      .string()
      .trim()
      .regex(
        RELEASE_NAME,
        "name the release with letters, digits, dots, dashes or underscores (up to 80), starting with a letter or digit, e.g. v1.2",
      ),
    description: z.string().trim().max(2_000).optional(),
  })
  .meta({ id: "ReleaseInput" });
export type CreateReleaseInput = z.input<typeof CreateReleaseSchema>;

const CURATED_TASKS = `
  SELECT t.id, t.instance_id, t.curation_status, task_evidence(t.id) AS evidence
  FROM tasks t WHERE t.curation_status = 'APPROVED'`;

const FRESH_DECISIONS = `
  COALESCE((SELECT jsonb_agg(jsonb_build_object('id', d.id, 'curator', u.email, 'verdict', d.verdict, 'reasons', d.reasons,
      'fingerprint', d.evidence_fingerprint, 'at', d.created_at) ORDER BY d.created_at, d.id)
    FROM curation_decisions d JOIN users u ON u.id = d.curator_id
    WHERE d.task_id = picked.id AND d.stale_at IS NULL), '[]'::jsonb)`;

/** Snapshots the curated set under a new, unique name and audits it; a taken name is a conflict, with what to do. */
export async function createRelease(
  db: PrismaClient,
  actor: { id: string; email?: string | null },
  rawInput: CreateReleaseInput,
) {
  const input = CreateReleaseSchema.parse(rawInput);
  const id = randomUUID();
  return db.$transaction(async (tx) => {
    if (await tx.release.findUnique({ where: { name: input.name }, select: { id: true } })) {
      throw new AppError(
        "CONFLICT",
        `A release named "${input.name}" exists already; releases never change, so choose another name`,
        { field: "name" },
      );
    }
    await tx.$executeRawUnsafe(
      `WITH picked AS (${CURATED_TASKS}),
       release AS (
         INSERT INTO releases (id, name, description, query, task_count, created_by_id, created_by_email)
         SELECT $1, $2, $3, $4, (SELECT count(*) FROM picked), $5, $6 RETURNING id)
       INSERT INTO release_tasks (release_id, task_id, instance_id, evidence, evidence_fingerprint, verdicts, decisions, curation_status)
       SELECT (SELECT id FROM release), picked.id, picked.instance_id, picked.evidence, evidence_fingerprint(picked.evidence),
              task_control_verdicts(picked.id), ${FRESH_DECISIONS}, picked.curation_status
       FROM picked`,
      id,
      input.name,
      input.description || null,
      CURATED_QUERY,
      actor.id,
      actor.email ?? null,
    );
    const release = await tx.release.findUniqueOrThrow({ where: { id } });
    await auditLog(tx, {
      actorId: actor.id,
      entityType: "release",
      entityId: id,
      action: "release.created",
      after: { name: release.name, taskCount: release.taskCount },
    });
    return release;
  });
}

/** Any change to a release is refused with why (the database refuses it too); an unknown release is "not found". */
export async function refuseReleaseChange(db: PrismaClient, idOrName: string): Promise<never> {
  const release = await db.release.findFirst({
    where: { OR: [{ id: idOrName }, { name: idOrName }] },
    select: { name: true },
  });
  if (!release) throw notFound(`The release "${idOrName}"`);
  throw new AppError(
    "CONFLICT",
    `Release "${release.name}" is immutable: a release never changes once made; create a new release instead`,
  );
}
