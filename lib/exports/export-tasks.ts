import { z } from "zod";
import type { Db } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { listTasks } from "../tasks/list-tasks";
import { withResolvedSlice } from "../analytics/resolve-slice";
import { filtersFromSearchParams, type TaskFilters } from "../tasks/task-filters";
import { toSweBenchRow, type ExportableTask } from "./swe-bench-row";
import { NOT_BLIND, type BlindSet } from "../auth/blind";
import {
  ExclusionTally,
  exclusionReason,
  filtersAnything,
  judgeTasks,
  NO_RELEASE_FILTERS,
  ReleaseFiltersSchema,
  type ExclusionReport,
  type ReleaseFilters,
} from "./release-filters";

// Streams tasks as SWE-bench-compatible JSONL: by default the approved ones, or any
// saved view or task-list query. Pages of ids come from the task list's own filter SQL
// (so an export is exactly what the list shows), then each page's rows are read whole
// and written out before the next page is read: memory holds one page.

export const ExportRequestSchema = z
  .object({
    /** a saved view of the caller's, by id or by name */
    view: z.string().trim().min(1).max(200).optional(),
    /** a task-list query string, e.g. "status=APPROVED&source=SWE_GYM" */
    query: z.string().max(4000).optional(),
    /** parquet: the Hugging Face layout (string columns, JSON-encoded test lists) */
    format: z.enum(["jsonl", "parquet"]).default("jsonl"),
    /** "json-string" writes FAIL_TO_PASS / PASS_TO_PASS as the Hugging Face export does */
    testLists: z.enum(["list", "json-string"]).default("list"),
    /** false (or "false", "0" in a query string) leaves our provenance out */
    provenance: z
      .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
      .default(true)
      .transform((v) => v === true || v === "true" || v === "1"),
    // the release filters (lib/exports/release-filters.ts): validated only unless asked otherwise
  })
  .extend(ReleaseFiltersSchema.shape);
export type ExportRequest = z.input<typeof ExportRequestSchema>;
export type ParsedExportRequest = z.infer<typeof ExportRequestSchema>;

export const DEFAULT_EXPORT_QUERY = "status=APPROVED";
const PAGE = 200;

/** The filters an export request means; a view that is not the caller's is "not found". */
export async function resolveExportFilters(
  db: Db,
  actorId: string | null,
  request: ExportRequest,
): Promise<{ filters: TaskFilters; description: string; release: ReleaseFilters }> {
  const input = ExportRequestSchema.parse(request);
  const release: ReleaseFilters = {
    validatedOnly: input.validatedOnly,
    verdict: input.verdict,
    decision: input.decision,
    agreement: input.agreement,
  };
  if (input.view) {
    if (!actorId) throw new AppError("BAD_REQUEST", "Exporting a saved view needs a signed-in user (or an API token)");
    const view = await db.savedView.findFirst({
      where: { userId: actorId, scope: "tasks", OR: [{ id: input.view }, { name: input.view }] },
    });
    if (!view) throw notFound(`The saved view "${input.view}"`);
    return {
      filters: filtersFromSearchParams(new URLSearchParams(view.query)),
      description: `view "${view.name}"`,
      release,
    };
  }
  const query = input.query?.replace(/^\?/, "") || DEFAULT_EXPORT_QUERY;
  return { filters: filtersFromSearchParams(new URLSearchParams(query)), description: query, release };
}

/** The tasks with everything an export row holds, in the order of `ids`. */
export async function loadPage(db: Db, ids: string[]): Promise<ExportableTask[]> {
  const tasks = await db.task.findMany({
    where: { id: { in: ids } },
    include: {
      environment: {
        include: {
          repository: { select: { owner: true, name: true } },
          currentRevision: { select: { id: true, number: true, contextHash: true, reason: true } },
        },
      },
      decisions: {
        orderBy: { createdAt: "asc" },
        select: {
          verdict: true,
          reasons: true,
          comment: true,
          overridesAutomated: true,
          createdAt: true,
          curator: { select: { email: true } },
        },
      },
      validationRuns: {
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          kind: true,
          status: true,
          resolved: true,
          exitCode: true,
          failureClass: true,
          flags: true,
          finishedAt: true,
          revision: { select: { number: true } },
          build: { select: { imageTag: true } },
          candidatePatch: { select: { generator: true } },
        },
      },
    },
  });
  const revisionIds = tasks.map((t) => t.environment.currentRevision?.id).filter((id): id is string => !!id);
  const builds = await db.build.findMany({
    where: { revisionId: { in: revisionIds }, status: "SUCCEEDED", imageTag: { not: null } },
    orderBy: { createdAt: "desc" },
    select: { revisionId: true, imageTag: true },
  });
  const imageByRevision = new Map<string, string>();
  for (const b of builds) if (!imageByRevision.has(b.revisionId)) imageByRevision.set(b.revisionId, b.imageTag!);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return ids
    .map((id) => byId.get(id))
    .filter((t): t is NonNullable<typeof t> => !!t)
    .map((t) => ({
      ...t,
      imageTag: t.environment.currentRevision ? (imageByRevision.get(t.environment.currentRevision.id) ?? null) : null,
    }));
}

/**
 * `blind`: the reader's blind set (lib/auth/blind.ts), whose hidden tasks an export leaves out as the list does; the CLI exports as the product, NOT_BLIND.
 * `release`: the release filters (none when absent); `plan`: a plan already made for them (planExport), so the report sent first and the rows agree.
 */
export type RowOptions = {
  actorId?: string | null;
  blind?: BlindSet;
  testLists?: "list" | "json-string";
  provenance?: boolean;
  release?: ReleaseFilters;
  plan?: ExportPlan;
};
export type ExportPlan = { ids: string[]; report: ExclusionReport };

/**
 * The selection's task ids in instance-id order, those the release filters refuse left out and
 * counted per reason. Ids only (a few MB at 100k tasks): the report must be known before the
 * first row is sent, as a header and on the page before the download.
 */
export async function planExport(
  db: Db,
  filters: TaskFilters,
  options: Pick<RowOptions, "actorId" | "blind" | "release"> = {},
): Promise<ExportPlan> {
  const release = options.release ?? NO_RELEASE_FILTERS;
  // resolved once: the slice's tasks are fixed for the whole export
  const context = await withResolvedSlice(db, filters.slice, {
    actorId: options.actorId ?? undefined,
    hiddenTasks: (options.blind ?? NOT_BLIND).sql,
  });
  const tally = new ExclusionTally();
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listTasks(db, { ...filters, sort: "instance_asc", limit: PAGE, cursor }, context);
    const pageIds = page.items.map((item) => item.id);
    if (filtersAnything(release)) {
      for (const task of await judgeTasks(db, pageIds, release))
        if (tally.count(exclusionReason(release, task))) ids.push(task.id);
    } else for (const id of pageIds) if (tally.count(null)) ids.push(id);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { ids, report: tally.report() };
}

/** Pages of export rows (SWE-bench instance objects), in instance-id order. */
export async function* exportRows(
  db: Db,
  filters: TaskFilters,
  options: RowOptions = {},
): AsyncGenerator<Record<string, unknown>[]> {
  const exportedAt = new Date();
  const { ids } = options.plan ?? (await planExport(db, filters, options));
  for (let start = 0; start < ids.length; start += PAGE) {
    const tasks = await loadPage(db, ids.slice(start, start + PAGE));
    yield tasks.map((task) =>
      toSweBenchRow(task, {
        testLists: options.testLists ?? "list",
        provenance: options.provenance ?? true,
        exportedAt,
      }),
    );
  }
}

/** JSONL, one task per line, a chunk per page. */
export async function* exportTasks(db: Db, filters: TaskFilters, options: RowOptions = {}): AsyncGenerator<string> {
  for await (const rows of exportRows(db, filters, options)) {
    if (rows.length) yield rows.map((row) => JSON.stringify(row) + "\n").join("");
  }
}
