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
import { controlOutcome, controlRunFacts, latestControlRunsSql, type ControlRunRow } from "./control-runs";
import { visibleOnly, type BlindSet } from "../auth/blind";
import { cachedFacts } from "./fact-cache";

// UTGen's measures of generated unit tests. A generated test is a TEST_GENERATION task: the
// generator's test patch on the original task's code, validated like any task — its negative
// control runs the test without the fix, its positive control with the gold fix. The test
// *attacks* when it fails without the fix, is *accurate* when it passes with the fix, and
// both make it a valid FAIL_TO_PASS test.

export type GeneratedTest = {
  taskId: string;
  instanceId: string;
  generator: string;
  repository: string;
  /** the task the test was generated for */
  generatedFor: string | null;
  original: { id: string; version: number } | null;
  attacks: boolean | null;
  accurate: boolean | null;
  negativeRun: RunSummary | null;
  positiveRun: RunSummary | null;
};
export type RunSummary = { id: string; failureClass: string | null; finishedAt: string | null };

export const GENERATED_TEST_DIMENSIONS: Dimensions<GeneratedTest> = {
  generator: (t) => t.generator,
  repository: (t) => t.repository,
};

export const GENERATED_TEST_OUTCOMES: Outcomes<GeneratedTest> = {
  tests: () => true,
  attacks: (t) => t.attacks === true,
  misses: (t) => t.attacks === false,
  accurate: (t) => t.accurate === true,
  inaccurate: (t) => t.accurate === false,
  valid: (t) => t.attacks === true && t.accurate === true,
  unmeasured: (t) => t.attacks === null || t.accurate === null,
};

const optionalText = z.string().trim().min(1).max(300).optional();
export const GeneratedTestQuerySchema = z.object({
  generator: optionalText,
  repository: optionalText,
  by: z.enum(["generator", "repository"]).default("generator"),
});
export type GeneratedTestQuery = z.infer<typeof GeneratedTestQuerySchema>;

const OUTCOME_COLUMNS = ["tests", "attacks", "accurate", "valid", "unmeasured"] as const;

/** Pure: rates per group and the per-test table. */
export type GeneratedTestAnalytics = { rates: FigureTable; tests: FigureTable; promotable: Promotable[] };
/** A valid test a curator may promote into its task. */
export type Promotable = {
  taskId: string;
  test: string;
  generatedFor: string;
  original: { id: string; version: number };
};

export function buildGeneratedTestAnalytics(all: GeneratedTest[], query: GeneratedTestQuery): GeneratedTestAnalytics {
  const filters = dimensionFilters(query, GENERATED_TEST_DIMENSIONS as Dimensions<unknown>);
  const tests = selectItems(all, filters, GENERATED_TEST_DIMENSIONS, GENERATED_TEST_OUTCOMES);
  const rows: FigureRow[] = [];
  const drill: FigureTable["drill"] = {};
  for (const group of groupItems(tests, [query.by], GENERATED_TEST_DIMENSIONS)) {
    const n = (outcome: string) => group.items.filter((t) => GENERATED_TEST_OUTCOMES[outcome](t, {})).length;
    const attackMeasured = group.items.filter((t) => t.attacks !== null).length;
    const accuracyMeasured = group.items.filter((t) => t.accurate !== null).length;
    const bothMeasured = group.items.filter((t) => t.attacks !== null && t.accurate !== null).length;
    rows.push({
      key: group.key,
      group: group.key,
      tests: n("tests"),
      attacks: n("attacks"),
      ...rateCells("attackRate", n("attacks"), attackMeasured),
      accurate: n("accurate"),
      ...rateCells("accuracy", n("accurate"), accuracyMeasured),
      valid: n("valid"),
      ...rateCells("validRate", n("valid"), bothMeasured),
      unmeasured: n("unmeasured"),
    });
    drill[group.key] = Object.fromEntries(
      OUTCOME_COLUMNS.map((o) => [o, sliceHref("generated-tests", { ...filters, ...group.values, outcome: o })]),
    );
  }
  const testRows: FigureRow[] = tests.map((t) => ({
    key: t.taskId,
    test: t.instanceId,
    generator: t.generator,
    generatedFor: t.generatedFor,
    withoutFix: runWords(t.negativeRun, t.attacks, "fails (attacks)", "passes (no attack)"),
    withFix: runWords(t.positiveRun, t.accurate, "passes (accurate)", "fails (inaccurate)"),
    verdict:
      t.attacks && t.accurate
        ? "valid fail-to-pass"
        : t.attacks === null || t.accurate === null
          ? "not measured yet"
          : "not valid",
  }));
  const promotable = tests.flatMap((t) =>
    t.attacks && t.accurate && t.original && t.generatedFor
      ? [{ taskId: t.taskId, test: t.instanceId, generatedFor: t.generatedFor, original: t.original }]
      : [],
  );
  return {
    promotable,
    rates: {
      title: `Generated tests per ${query.by}`,
      columns: [
        text("group", query.by === "generator" ? "Generator" : "Repository"),
        count("tests", "Tests"),
        count("attacks", "Attack (fail without fix)"),
        rateColumn("attackRate", "Attack rate"),
        count("accurate", "Accurate (pass with fix)"),
        rateColumn("accuracy", "Output accuracy"),
        count("valid", "Accurate ∩ attack"),
        rateColumn("validRate", "Accuracy ∩ attack rate"),
        count("unmeasured", "Not measured yet"),
      ],
      rows,
      drill,
    },
    tests: {
      title: "Each generated test's runs",
      columns: [
        text("test", "Test"),
        text("generator", "Generator"),
        text("generatedFor", "For task"),
        text("withoutFix", "Without the fix"),
        text("withFix", "With the gold fix"),
        text("verdict", "Verdict"),
      ],
      rows: testRows,
      drill: Object.fromEntries(tests.map((t) => [t.taskId, { test: `/tasks/${t.taskId}` }])),
    },
  };
}

function runWords(run: RunSummary | null, outcome: boolean | null, yes: string, no: string): string {
  if (!run) return "not run";
  if (outcome === null) return `did not measure (${run.failureClass ?? "unknown"})`;
  return outcome ? yes : no;
}

const summary = (id: string | null, failureClass: string | null, finishedAt: Date | null): RunSummary | null =>
  id ? { id, failureClass, finishedAt: finishedAt ? finishedAt.toISOString() : null } : null;

/** Every generated test with its latest control runs, read again only after a write. */
export const loadGeneratedTests = (db: Db): Promise<GeneratedTest[]> => cachedFacts(db, GENERATED_TEST_FACTS);

/** Every generated test (of `tasks`, when given) with its latest control runs, from the tables. */
export async function readGeneratedTests(db: Db, tasks?: string[]): Promise<GeneratedTest[]> {
  const { text: statement, values } = latestControlRunsSql("TEST_GENERATION", tasks).toQuery();
  const rows = await db.$queryRawUnsafe<ControlRunRow[]>(statement, ...values);
  return rows.map((row) => ({
    taskId: row.taskId,
    instanceId: row.instanceId,
    generator: labelOrMissing(row.generator, "(no generator)"),
    repository: labelOrMissing(row.repository, "(no repository)"),
    generatedFor: row.generatedFor,
    original: row.originalId ? { id: row.originalId, version: Number(row.originalVersion) } : null,
    attacks: controlOutcome(row.negId, row.negClass, "NEGATIVE_CONTROL_PASSED"),
    accurate: controlOutcome(row.posId, row.posClass, "POSITIVE_CONTROL_FAILED"),
    negativeRun: summary(row.negId, row.negClass, row.negFinished),
    positiveRun: summary(row.posId, row.posClass, row.posFinished),
  }));
}

const GENERATED_TEST_FACTS = controlRunFacts("generated tests", readGeneratedTests);

export async function generatedTestAnalytics(db: Db, query: GeneratedTestQuery, blind: BlindSet) {
  return buildGeneratedTestAnalytics(
    await visibleOnly(blind, await loadGeneratedTests(db), (test) => test.taskId),
    query,
  );
}

export async function generatedTestSliceTaskIds(db: Db, params: SliceParams): Promise<string[]> {
  return uniqueTaskIds(
    selectItems(await loadGeneratedTests(db), params, GENERATED_TEST_DIMENSIONS, GENERATED_TEST_OUTCOMES),
  );
}
