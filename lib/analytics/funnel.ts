import { z } from "zod";
import type { Db } from "../db/client";
import { joinSql, raw, sql, type SqlFragment } from "../db/sql";
import { count, rateCells, rateColumn, text, type FigureRow, type FigureTable } from "./figures";
import { labelOrMissing } from "../metrics/missing-label";
import { sliceHref } from "./slice-key";
import { notHiddenSql, type BlindSet } from "../auth/blind";

// The validation funnel (OpenSWE-style): how many tasks survive each gate. A task counts at
// the first gate its recorded verdict and failure class say it failed (compute-verdict.ts
// ranks the classes, so a task has one), and every figure here is a SQL predicate on the
// task: the page counts with it and the task list filters with the very same text.

export const FUNNEL_STAGES = [
  { key: "imported", label: "Imported" },
  { key: "environment", label: "Has an environment (a recipe, image or spec)" },
  { key: "built", label: "Built" },
  { key: "negative", label: "Negative control held (fails without the fix)" },
  { key: "positive", label: "Positive control held (passes with the fix)" },
  { key: "legitimate", label: "Legitimate (real exit code, tests ran, not flaky)" },
  { key: "approved", label: "Approved by a curator" },
] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number]["key"];
const STAGE_KEYS = FUNNEL_STAGES.map((s) => s.key) as [FunnelStage, ...FunnelStage[]];

// a task whose environment has no source yet (NONE) waits for one: it is never counted as a
// failure. The task list asks per task (NO_ENVIRONMENT); the aggregate has the environment
// joined already (e): asking per task there cost two index lookups for each of 100,000 tasks,
// 400 of its 630 ms (EXPLAIN ANALYZE, npm run bench:analytics -- --explain).
const NO_ENVIRONMENT =
  "(SELECT source_env.image_source = 'NONE' FROM environments source_env WHERE source_env.id = t.environment_id)";
const NO_ENVIRONMENT_JOINED = "e.image_source = 'NONE'";

/**
 * The index of the first gate a task did not pass (1 = no environment yet, 2 = not built … 6 =
 * not approved), 7 when it passed all: a task reached stage i when this is greater than i.
 */
const stopOf = (noEnvironment: string) =>
  raw(`(CASE
  WHEN ${noEnvironment} THEN 1
  WHEN t.automated_verdict = 'PENDING' OR t.failure_class IN ('BUILD_ERROR', 'INFRA_ERROR') THEN 2
  WHEN t.failure_class IN ('NEGATIVE_CONTROL_PASSED', 'TIMEOUT') THEN 3
  WHEN t.failure_class = 'POSITIVE_CONTROL_FAILED' THEN 4
  WHEN t.automated_verdict <> 'VALID' THEN 5
  WHEN t.curation_status <> 'APPROVED' THEN 6
  ELSE 7 END)`);

/** Why a task stopped where it did: no environment yet, its failure class, FLAKY, NOT_VALIDATED or its curation status. */
const causeOf = (noEnvironment: string) =>
  raw(`(CASE
  WHEN ${noEnvironment} THEN 'NO_ENVIRONMENT'
  WHEN t.automated_verdict = 'PENDING' AND t.failure_class IS NULL THEN 'NOT_VALIDATED'
  WHEN t.automated_verdict = 'FLAKY' THEN 'FLAKY'
  WHEN t.failure_class IS NOT NULL THEN t.failure_class::text
  WHEN t.automated_verdict <> 'VALID' THEN t.automated_verdict::text
  WHEN t.curation_status <> 'APPROVED' THEN t.curation_status::text
  END)`);
const STOP = stopOf(NO_ENVIRONMENT);
const CAUSE = causeOf(NO_ENVIRONMENT);

export const FUNNEL_CAUSE_LABELS: Record<string, string> = {
  NO_ENVIRONMENT: "no environment yet",
  NOT_VALIDATED: "not validated yet",
  FLAKY: "flaky (attempts disagree)",
  PENDING: "awaiting a curator",
  REJECTED: "rejected by a curator",
  NEEDS_CHANGES: "sent back by a curator",
};

/**
 * What the funnel can be split by, each a value per task: `column` reads it from the
 * aggregate's joins (e: environment, r: repository, b: import batch), `expr` from the task
 * alone (the task list's filter). Both say the same thing.
 */
const REPOSITORY = "r.owner || '/' || r.name";
const GENERATOR = "COALESCE(e.metadata->>'recipeAuthor', e.metadata->>'generator', '(none)')";
const BATCH = "COALESCE(b.file_name || ' · ' || to_char(b.created_at, 'YYYY-MM-DD HH24:MI'), '(not imported)')";
const onEnvironment = (column: string) =>
  raw(
    `(SELECT ${column} FROM environments e JOIN repositories r ON r.id = e.repository_id WHERE e.id = t.environment_id)`,
  );
export const FUNNEL_DIMENSIONS = {
  source: { label: "Source", column: raw("t.source::text"), expr: raw("t.source::text") },
  repository: { label: "Repository", column: raw(REPOSITORY), expr: onEnvironment(REPOSITORY) },
  generator: { label: "Environment generator", column: raw(GENERATOR), expr: onEnvironment(GENERATOR) },
  batch: {
    label: "Import batch",
    column: raw(BATCH),
    expr: raw(`(SELECT ${BATCH} FROM (SELECT 1) one LEFT JOIN import_batches b ON b.id = t.import_batch_id)`),
  },
} as const;
export type FunnelDimension = keyof typeof FUNNEL_DIMENSIONS;
const DIMENSION_KEYS = Object.keys(FUNNEL_DIMENSIONS) as [FunnelDimension, ...FunnelDimension[]];

const optionalText = z.string().trim().min(1).max(300).optional();
/** Filters (one value per dimension) and, in a slice, the stage reached or the gate and cause of a drop. */
export const FunnelSliceSchema = z.object({
  source: optionalText,
  repository: optionalText,
  generator: optionalText,
  batch: optionalText,
  stage: z.enum(STAGE_KEYS).optional(),
  gate: z.enum(STAGE_KEYS).optional(),
  cause: optionalText,
});
export type FunnelSlice = z.infer<typeof FunnelSliceSchema>;

export const FunnelQuerySchema = FunnelSliceSchema.pick({
  source: true,
  repository: true,
  generator: true,
  batch: true,
}).extend({
  by: z.enum(["all", ...DIMENSION_KEYS]).default("all"),
});
export type FunnelQuery = z.infer<typeof FunnelQuerySchema>;

const stageIndex = (stage: FunnelStage) => STAGE_KEYS.indexOf(stage);

/** The tasks a funnel slice names: its filters, then the stage reached or the drop at a gate. */
export function funnelCondition(slice: FunnelSlice): SqlFragment {
  const parts: SqlFragment[] = [raw("t.kind <> 'TEST_GENERATION'")];
  for (const key of DIMENSION_KEYS) {
    const value = slice[key];
    if (value !== undefined) parts.push(sql`${FUNNEL_DIMENSIONS[key].expr} = ${value}`);
  }
  if (slice.stage) parts.push(sql`${STOP} > ${stageIndex(slice.stage)}`);
  if (slice.gate) parts.push(sql`${STOP} = ${stageIndex(slice.gate)}`);
  if (slice.cause) parts.push(sql`${CAUSE} = ${slice.cause}`);
  return joinSql(parts, " AND ");
}

type GroupedCount = { grp: string | null; stop: number; cause: string | null; n: number };

export type FunnelResult = {
  by: FunnelQuery["by"];
  /** one row per group and stage: the chart's bars */
  stages: FigureTable;
  /** one row per group, gate and cause */
  drops: FigureTable;
  groups: string[];
};

function filtersOf(query: FunnelQuery): FunnelSlice {
  return { source: query.source, repository: query.repository, generator: query.generator, batch: query.batch };
}

const defined = (params: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));

/** Pure: the funnel tables from counts per (group, first failed gate, cause). */
export function buildFunnel(query: FunnelQuery, counts: GroupedCount[]): FunnelResult {
  const groupOf = (c: GroupedCount) =>
    query.by === "all" ? "all tasks" : labelOrMissing(c.grp, `(no ${FUNNEL_DIMENSIONS[query.by].label.toLowerCase()})`);
  const groups = [...new Set(counts.map(groupOf))].sort();
  const base = filtersOf(query);
  const sliceFor = (group: string, extra: Record<string, string>) =>
    sliceHref("funnel", defined({ ...base, ...(query.by === "all" ? {} : { [query.by]: group }), ...extra }));

  const stageRows: FigureRow[] = [];
  const stageDrill: FunnelResult["stages"]["drill"] = {};
  const dropRows: FigureRow[] = [];
  const dropDrill: FunnelResult["drops"]["drill"] = {};
  const byGroup = new Map<string, GroupedCount[]>();
  for (const c of counts) byGroup.set(groupOf(c), [...(byGroup.get(groupOf(c)) ?? []), c]);
  for (const group of groups) {
    const mine = byGroup.get(group) ?? [];
    const reached = (i: number) => mine.filter((c) => c.stop > i).reduce((sum, c) => sum + c.n, 0);
    const imported = reached(0);
    FUNNEL_STAGES.forEach((stage, i) => {
      const key = `${group}|${stage.key}`;
      const n = reached(i);
      stageRows.push({
        key,
        group,
        stage: stage.label,
        tasks: n,
        ...rateCells("ofImported", n, imported),
        ...(i === 0 ? { ofPrevious: null } : rateCells("ofPrevious", n, reached(i - 1))),
      });
      stageDrill[key] = { tasks: sliceFor(group, { stage: stage.key }) };
      if (i === 0) return;
      const causes = new Map<string, number>();
      for (const c of mine.filter((c) => c.stop === i))
        causes.set(c.cause ?? "UNKNOWN", (causes.get(c.cause ?? "UNKNOWN") ?? 0) + c.n);
      for (const [cause, n] of [...causes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
        const dropKey = `${group}|${stage.key}|${cause}`;
        dropRows.push({
          key: dropKey,
          group,
          gate: stage.label,
          cause: FUNNEL_CAUSE_LABELS[cause] ?? cause,
          tasks: n,
          ...rateCells("ofReaching", n, reached(i - 1)),
        });
        dropDrill[dropKey] = { tasks: sliceFor(group, { gate: stage.key, cause }) };
      }
    });
  }
  return {
    by: query.by,
    groups,
    stages: {
      title: "Tasks reaching each gate",
      columns: [
        text("group", "Group"),
        text("stage", "Stage"),
        count("tasks", "Tasks"),
        rateColumn("ofImported", "Of imported"),
        rateColumn("ofPrevious", "Of previous stage"),
      ],
      rows: stageRows,
      drill: stageDrill,
    },
    drops: {
      title: "Where tasks drop, and why",
      columns: [
        text("group", "Group"),
        text("gate", "Failed gate"),
        text("cause", "Cause"),
        count("tasks", "Tasks"),
        rateColumn("ofReaching", "Of tasks reaching the gate"),
      ],
      rows: dropRows,
      drill: dropDrill,
    },
  };
}

/** The funnel's one statement: counts per (group, first failed gate, cause). */
export function funnelSql(query: FunnelQuery, blind: BlindSet): SqlFragment {
  const group = query.by === "all" ? raw("NULL::text") : FUNNEL_DIMENSIONS[query.by].column;
  // joined once instead of looked up per task: a split over 100,000 tasks stays one hash join
  return sql`
    SELECT ${group} AS grp, ${stopOf(NO_ENVIRONMENT_JOINED)} AS stop, ${causeOf(NO_ENVIRONMENT_JOINED)} AS cause,
      count(*)::int AS n
    FROM tasks t JOIN environments e ON e.id = t.environment_id JOIN repositories r ON r.id = e.repository_id
    LEFT JOIN import_batches b ON b.id = t.import_batch_id
    WHERE ${funnelCondition(filtersOf(query))} AND ${notHiddenSql(blind, "t.id")}
    GROUP BY 1, 2, 3`;
}

/** The funnel over every task but those `blind` hides (lib/auth/blind.ts). */
export async function computeFunnel(db: Db, query: FunnelQuery, blind: BlindSet): Promise<FunnelResult> {
  const { text: statement, values } = funnelSql(query, blind).toQuery();
  const counts = await db.$queryRawUnsafe<GroupedCount[]>(statement, ...values);
  return buildFunnel(
    query,
    counts.map((c) => ({ ...c, stop: Number(c.stop), n: Number(c.n) })),
  );
}

export const funnelHref = (params: FunnelSlice) => sliceHref("funnel", defined(params));
