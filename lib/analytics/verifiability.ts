import { z } from "zod";
import type { Db } from "../db/client";
import { count, rateCells, rateColumn, text, type FigureRow, type FigureTable } from "./figures";
import { labelOrMissing } from "../metrics/missing-label";
import {
  dimensionFilters,
  groupItems,
  selectItems,
  uniqueTaskIds,
  type Dimensions,
  type Outcomes,
} from "./item-slices";
import { sliceHref, type SliceParams } from "./slice-key";
import { controlOutcome, controlRunFacts, latestControlRuns } from "./control-runs";
import { EMPTY, sql } from "../db/sql";
import { visibleOnly, type BlindSet } from "../auth/blind";
import { cachedFacts } from "./fact-cache";

// SWE-Flow's verifiability audit: a test-driven step is verifiable when its ground-truth
// patch, applied to the step's skeleton, makes the step's tests pass — exactly the step's
// positive control run. A step that fails is either missing a dependency (a NameError,
// ImportError or AttributeError for a name the step itself does not declare: a function an
// earlier step in the build order should have provided) or a semantic mismatch between the
// patch and its tests.

export type StepFailure =
  { kind: "missing_dependency"; name: string; line: string } | { kind: "semantic_mismatch"; line: string | null };

const UNDEFINED_NAME_PATTERNS = [
  /NameError: name '(\w+)' is not defined/,
  /ImportError: cannot import name '(\w+)'/,
  /AttributeError: [^\n]*has no attribute '(\w+)'/,
  /ModuleNotFoundError: No module named '([\w.]+)'/,
];

/** Names the step's patch declares on its added lines: def, async def, class, or an assignment at the start of a line. */
export function declaredNames(patch: string): Set<string> {
  const names = new Set<string>();
  for (const line of patch.split("\n")) {
    if (!line.startsWith("+") || line.startsWith("+++")) continue;
    const declaration = /^\+\s*(?:async\s+)?(?:def|class)\s+(\w+)/.exec(line) ?? /^\+(\w+)\s*(?::[^=]*)?=/.exec(line);
    if (declaration) names.add(declaration[1]);
  }
  return names;
}

/** Classifies a failed step from its positive-control log and its ground-truth patch. */
export function classifyStepFailure(log: string, fixPatch: string): StepFailure {
  const declared = declaredNames(fixPatch);
  for (const line of log.split("\n")) {
    for (const pattern of UNDEFINED_NAME_PATTERNS) {
      const match = pattern.exec(line);
      if (!match) continue;
      const name = match[1].split(".").pop()!;
      if (!declared.has(name)) return { kind: "missing_dependency", name: match[1], line: line.trim() };
    }
  }
  const firstError = log.split("\n").find((line) => /^E\s|Error\b|FAILED /.test(line));
  return { kind: "semantic_mismatch", line: firstError?.trim() ?? null };
}

export type Step = {
  taskId: string;
  instanceId: string;
  project: string;
  /** null: the positive control has not run, or stopped before the tests (build error …) */
  verifiable: boolean | null;
  failure: StepFailure | null;
  runId: string | null;
};

export const STEP_DIMENSIONS: Dimensions<Step> = { project: (s) => s.project };
export const STEP_OUTCOMES: Outcomes<Step> = {
  steps: () => true,
  verifiable: (s) => s.verifiable === true,
  notVerifiable: (s) => s.verifiable === false,
  missingDependency: (s) => s.failure?.kind === "missing_dependency",
  semanticMismatch: (s) => s.failure?.kind === "semantic_mismatch",
  unmeasured: (s) => s.verifiable === null,
};

export const VerifiabilityQuerySchema = z.object({ project: z.string().trim().min(1).max(300).optional() });
export type VerifiabilityQuery = z.infer<typeof VerifiabilityQuerySchema>;

const OUTCOME_KEYS = Object.keys(STEP_OUTCOMES);

export function buildVerifiability(
  all: Step[],
  query: VerifiabilityQuery,
): { projects: FigureTable; failures: FigureTable } {
  const filters = dimensionFilters(query, STEP_DIMENSIONS as Dimensions<unknown>);
  const steps = selectItems(all, filters, STEP_DIMENSIONS, STEP_OUTCOMES);
  const rows: FigureRow[] = [];
  const drill: FigureTable["drill"] = {};
  for (const group of groupItems(steps, ["project"], STEP_DIMENSIONS)) {
    const n = (o: string) => group.items.filter((s) => STEP_OUTCOMES[o](s, {})).length;
    rows.push({
      key: group.key,
      project: group.key,
      ...Object.fromEntries(OUTCOME_KEYS.map((o) => [o, n(o)])),
      ...rateCells("verifiableShare", n("verifiable"), n("verifiable") + n("notVerifiable")),
    });
    drill[group.key] = Object.fromEntries(
      OUTCOME_KEYS.map((o) => [o, sliceHref("verifiability", { ...filters, ...group.values, outcome: o })]),
    );
  }
  const failing = steps.filter((s) => s.verifiable === false);
  return {
    projects: {
      title: "Verifiable test-driven steps per project",
      columns: [
        text("project", "Project"),
        count("steps", "Steps"),
        count("verifiable", "Verifiable"),
        count("notVerifiable", "Not verifiable"),
        rateColumn("verifiableShare", "Verifiable share"),
        count("missingDependency", "Missing dependency"),
        count("semanticMismatch", "Semantic mismatch"),
        count("unmeasured", "Not run yet"),
      ],
      rows,
      drill,
    },
    failures: {
      title: "Steps that are not verifiable",
      columns: [
        text("step", "Step"),
        text("project", "Project"),
        text("cause", "Cause"),
        text("evidence", "From the log"),
      ],
      rows: failing.map((s) => ({
        key: s.taskId,
        step: s.instanceId,
        project: s.project,
        cause: s.failure?.kind === "missing_dependency" ? `missing dependency: ${s.failure.name}` : "semantic mismatch",
        evidence: s.failure?.line ?? null,
      })),
      drill: Object.fromEntries(failing.map((s) => [s.taskId, { step: `/tasks/${s.taskId}` }])),
    },
  };
}

const LOG_TAIL = 20_000;

type StepRow = {
  taskId: string;
  instanceId: string;
  repository: string;
  posId: string | null;
  posClass: string | null;
  fixPatch: string | null;
  logTail: string | null;
};

/**
 * Each step with its latest finished positive control (as latestControlRuns picks it). Only
 * a failed control's tail of log and the step's patch travel, the two texts the failure is
 * classified from: the traceback is at the end of the log.
 */
export const stepsSqlFor = (tasks?: string[]) => sql`
  SELECT t.id AS "taskId", t.instance_id AS "instanceId", r.owner || '/' || r.name AS repository,
         pos.id AS "posId", pos.failure_class::text AS "posClass",
         CASE WHEN pos.failure_class = 'POSITIVE_CONTROL_FAILED' THEN t.fix_patch END AS "fixPatch",
         CASE WHEN pos.failure_class = 'POSITIVE_CONTROL_FAILED' THEN right(failed.log, ${LOG_TAIL}) END AS "logTail"
  FROM tasks t
  LEFT JOIN environments e ON e.id = t.environment_id
  LEFT JOIN repositories r ON r.id = e.repository_id
  LEFT JOIN ${latestControlRuns("POSITIVE_CONTROL", "v.id, v.failure_class", tasks)} pos ON pos.task_id = t.id
  LEFT JOIN validation_runs failed ON failed.id = pos.id AND pos.failure_class = 'POSITIVE_CONTROL_FAILED'
  WHERE t.kind = 'TDD_STEP' ${tasks ? sql`AND t.id = ANY(${tasks}::text[])` : EMPTY}
  ORDER BY t.instance_id COLLATE "C", t.id COLLATE "C"`;

/** Every test-driven step with its latest positive control, read again only after a write. */
export const loadSteps = (db: Db): Promise<Step[]> => cachedFacts(db, STEP_FACTS);

/** Every test-driven step (of `tasks`, when given) with its latest positive control, from the tables. */
export async function readSteps(db: Db, tasks?: string[]): Promise<Step[]> {
  const { text: statement, values } = stepsSqlFor(tasks).toQuery();
  const rows = await db.$queryRawUnsafe<StepRow[]>(statement, ...values);
  return rows.map((row) => {
    const verifiable = controlOutcome(row.posId, row.posClass, "POSITIVE_CONTROL_FAILED");
    return {
      taskId: row.taskId,
      instanceId: row.instanceId,
      project: labelOrMissing(row.repository, "(no repository)"),
      verifiable,
      failure: verifiable === false ? classifyStepFailure(row.logTail ?? "", row.fixPatch ?? "") : null,
      runId: row.posId,
    };
  });
}

const STEP_FACTS = controlRunFacts("steps", readSteps);

export async function verifiabilityAnalytics(db: Db, query: VerifiabilityQuery, blind: BlindSet) {
  return buildVerifiability(await visibleOnly(blind, await loadSteps(db), (step) => step.taskId), query);
}

export async function verifiabilitySliceTaskIds(db: Db, params: SliceParams): Promise<string[]> {
  return uniqueTaskIds(selectItems(await loadSteps(db), params, STEP_DIMENSIONS, STEP_OUTCOMES));
}
