import { z } from "zod";
import type { Db, PrismaClient } from "../db/client";
import {
  filtersFromSearchParams,
  TaskFiltersSchema,
  type TaskFilters,
  type TaskFiltersInput,
} from "../tasks/task-filters";
import { taskOrderBy, taskWhere } from "../tasks/task-list-sql";
import { sql, type SqlFragment } from "../db/sql";
import { withResolvedSlice } from "../analytics/resolve-slice";
import { getCurationSettings } from "./settings";
import type { BlindSet } from "../auth/blind";

// "Review next" hands each curator a different task: the candidate row is locked with
// FOR UPDATE SKIP LOCKED while the lease is written, so concurrent callers never pick the
// same row, and a lease that ran out (the curator walked away) makes the task available again.

export const ClaimNextInputSchema = z.object({
  /** the view's filters (a task list query string or its parsed form); status defaults to PENDING */
  filters: z.union([z.string().max(4_000), z.record(z.string(), z.unknown())]).default(""),
  /** tasks this curator skipped in this session, not to be handed again */
  skip: z.array(z.string()).max(1_000).default([]),
});
export type ClaimNextInput = z.input<typeof ClaimNextInputSchema>;

export type ClaimedTask = { taskId: string; instanceId: string; leaseExpiresAt: Date } | null;

function filtersFrom(input: z.infer<typeof ClaimNextInputSchema>["filters"]): TaskFilters {
  const filters =
    typeof input === "string"
      ? filtersFromSearchParams(new URLSearchParams(input))
      : TaskFiltersSchema.parse(input as TaskFiltersInput);
  return filters.status.length ? filters : { ...filters, status: ["PENDING"] };
}

// a stale decision (its evidence changed since, see lib/curation/evidence.ts) does not count: the task comes back to its curator
const notDecidedBy = (actorId: string) =>
  sql`NOT EXISTS (SELECT 1 FROM curation_decisions d WHERE d.task_id = t.id AND d.curator_id = ${actorId} AND d.stale_at IS NULL)`;

/** How many tasks of the view the actor has not decided yet: what "n of m left" counts. */
/** `blind` leaves out tasks the reader may not see: a count under a verdict filter would tell verdicts. */
export async function reviewQueueLeft(
  db: PrismaClient,
  actor: { id: string },
  rawFilters: ClaimNextInput["filters"],
  blind: BlindSet,
): Promise<{ left: number }> {
  const filters = filtersFrom(ClaimNextInputSchema.shape.filters.parse(rawFilters));
  const context = await withResolvedSlice(db, filters.slice, { actorId: actor.id, hiddenTasks: blind.sql });
  const { text, values } =
    sql`SELECT count(*)::int AS left FROM tasks t WHERE ${taskWhere(filters, context)} AND ${notDecidedBy(actor.id)}`.toQuery();
  const [row] = await db.$queryRawUnsafe<{ left: number }[]>(text, ...values);
  return { left: row?.left ?? 0 };
}

/** Leases the next task of the view to the actor (releasing any other lease they hold); never one `blind` hides, whose lease under a verdict filter would tell its verdict. */
export async function claimNextTask(
  db: PrismaClient,
  actor: { id: string },
  rawInput: ClaimNextInput,
  blind: BlindSet,
): Promise<ClaimedTask> {
  const input = ClaimNextInputSchema.parse(rawInput);
  const filters = filtersFrom(input.filters);
  const context = await withResolvedSlice(db, filters.slice, { actorId: actor.id, hiddenTasks: blind.sql });
  const eligible = sql`${taskWhere(filters, context)}
        AND ${notDecidedBy(actor.id)}
        AND NOT (t.id = ANY(${input.skip}::text[]))`;
  return leaseNextTask(db, actor, { eligible, orderBy: taskOrderBy(filters.sort) });
}

/**
 * The one lease mechanism: the first task (alias t) meeting `eligible`, in `orderBy`, that
 * nobody else holds under a live lease, leased to the actor; `afterClaim` runs in the same
 * transaction (e.g. to record when a campaign label was opened). The review queue and
 * annotation campaigns (lib/campaigns/serve-next.ts) both hand out tasks through it.
 */
export async function leaseNextTask(
  db: PrismaClient,
  actor: { id: string },
  query: {
    eligible: SqlFragment;
    orderBy: SqlFragment;
    afterClaim?: (tx: Db, taskId: string) => Promise<void>;
    shared?: boolean;
  },
): Promise<ClaimedTask> {
  const { leaseMinutes } = await getCurationSettings(db);
  const claim = sql`
    WITH next AS (
      SELECT t.id FROM tasks t
      WHERE ${query.eligible}
        ${query.shared ? sql`` : sql`AND (t.leased_by_id IS NULL OR t.leased_by_id = ${actor.id} OR t.lease_expires_at < (now() AT TIME ZONE 'UTC'))`}
      ORDER BY ${query.orderBy}
      LIMIT 1
      FOR UPDATE OF t SKIP LOCKED
    )
    UPDATE tasks SET leased_by_id = ${actor.id}, lease_expires_at = (now() AT TIME ZONE 'UTC') + make_interval(mins => ${leaseMinutes}::int)
    FROM next WHERE tasks.id = next.id
    RETURNING tasks.id AS "taskId", tasks.instance_id AS "instanceId", tasks.lease_expires_at AS "leaseExpiresAt"`;
  const { text, values } = claim.toQuery();
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRawUnsafe<{ taskId: string; instanceId: string; leaseExpiresAt: Date }[]>(
      text,
      ...values,
    );
    const claimed = rows[0] ?? null;
    await releaseLeases(tx, actor.id, claimed?.taskId);
    if (claimed && query.afterClaim) await query.afterClaim(tx, claimed.taskId);
    return claimed ? { ...claimed, leaseExpiresAt: new Date(claimed.leaseExpiresAt) } : null;
  });
}

/** Gives back the actor's leases (all, or all but one task). */
export async function releaseLeases(db: Db, actorId: string, exceptTaskId?: string) {
  await db.task.updateMany({
    where: { leasedById: actorId, ...(exceptTaskId ? { id: { not: exceptTaskId } } : {}) },
    data: { leasedById: null, leaseExpiresAt: null },
  });
}
