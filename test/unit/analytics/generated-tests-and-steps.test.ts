import { describe, expect, it } from "vitest";
import {
  buildGeneratedTestAnalytics,
  GeneratedTestQuerySchema,
  type GeneratedTest,
} from "@/lib/analytics/generated-tests";
import { buildVerifiability, classifyStepFailure, type Step } from "@/lib/analytics/verifiability";
import { controlOutcome } from "@/lib/analytics/control-runs";
import {
  buildRevisionLoop,
  REVISION_DIMENSIONS,
  REVISION_OUTCOMES,
  type RevisionPair,
} from "@/lib/analytics/revisions";
import { selectItems } from "@/lib/analytics/item-slices";
import { decodeSlice } from "@/lib/analytics/slice-key";

const run = { id: "r", failureClass: null, finishedAt: null };
const test = (taskId: string, generator: string, attacks: boolean | null, accurate: boolean | null): GeneratedTest => ({
  taskId,
  instanceId: taskId,
  generator,
  repository: "o/r",
  generatedFor: "demo__calc-1",
  original: { id: "o1", version: 3 },
  attacks,
  accurate,
  negativeRun: attacks === null ? null : run,
  positiveRun: accurate === null ? null : run,
});

describe("generated tests", () => {
  const result = buildGeneratedTestAnalytics(
    [
      test("t1", "X", true, true),
      test("t2", "X", true, false),
      test("t3", "X", false, true),
      test("t4", "X", null, null),
      test("t5", "Y", true, true),
    ],
    GeneratedTestQuerySchema.parse({}),
  );

  it("attack rate, output accuracy and accuracy ∩ attack over the tests whose runs measured them", () => {
    const x = result.rates.rows.find((r) => r.key === "X")!;
    expect(x).toMatchObject({ tests: 4, attacks: 2, accurate: 2, valid: 1, unmeasured: 1 });
    expect(x.attackRate).toBeCloseTo(2 / 3);
    expect(x.accuracy).toBeCloseTo(2 / 3);
    expect(x.validRate).toBeCloseTo(1 / 3);
    expect(result.rates.rows.find((r) => r.key === "Y")).toMatchObject({
      tests: 1,
      attackRate: 1,
      accuracy: 1,
      validRate: 1,
    });
  });

  it("offers only valid tests for promotion", () => {
    expect(result.promotable).toEqual([
      { taskId: "t1", test: "t1", generatedFor: "demo__calc-1", original: { id: "o1", version: 3 } },
      { taskId: "t5", test: "t5", generatedFor: "demo__calc-1", original: { id: "o1", version: 3 } },
    ]);
  });

  it("says per test what each run showed", () => {
    expect(result.tests.rows.find((r) => r.key === "t2")).toMatchObject({
      withoutFix: "fails (attacks)",
      withFix: "fails (inaccurate)",
      verdict: "not valid",
    });
    expect(result.tests.rows.find((r) => r.key === "t4")).toMatchObject({
      withoutFix: "not run",
      verdict: "not measured yet",
    });
  });

  it("a control run measures only when it behaved or failed the way its kind tests", () => {
    expect(controlOutcome("r", null, "NEGATIVE_CONTROL_PASSED")).toBe(true);
    expect(controlOutcome("r", "NEGATIVE_CONTROL_PASSED", "NEGATIVE_CONTROL_PASSED")).toBe(false);
    expect(controlOutcome("r", "BUILD_ERROR", "NEGATIVE_CONTROL_PASSED")).toBeNull();
    expect(controlOutcome(null, null, "NEGATIVE_CONTROL_PASSED")).toBeNull();
  });
});

describe("verifiability of test-driven steps", () => {
  const PATCH = "+++ b/pkg/parse.py\n+def parse(text):\n+    return tokenize(text)\n+class Lexer:\n+    pass\n";

  it("a NameError, ImportError or AttributeError for a name the step does not declare is a missing dependency", () => {
    expect(classifyStepFailure("E   NameError: name 'tokenize' is not defined", PATCH)).toEqual({
      kind: "missing_dependency",
      name: "tokenize",
      line: "E   NameError: name 'tokenize' is not defined",
    });
    expect(classifyStepFailure("AttributeError: module 'pkg.util' has no attribute 'helper'", PATCH)).toMatchObject({
      kind: "missing_dependency",
      name: "helper",
    });
    expect(classifyStepFailure("ModuleNotFoundError: No module named 'pkg.lexing'", PATCH)).toMatchObject({
      kind: "missing_dependency",
      name: "pkg.lexing",
    });
  });

  it("an error about a name the step declares, or a wrong value, is a semantic mismatch", () => {
    expect(classifyStepFailure("ImportError: cannot import name 'Lexer' from 'pkg'", PATCH)).toEqual({
      kind: "semantic_mismatch",
      line: "ImportError: cannot import name 'Lexer' from 'pkg'",
    });
    expect(classifyStepFailure("tests/test_parse.py F\nE       assert 3 == 4\n", PATCH)).toEqual({
      kind: "semantic_mismatch",
      line: "E       assert 3 == 4",
    });
  });

  it("the verifiable share counts only steps whose ground truth ran its tests", () => {
    const step = (taskId: string, verifiable: boolean | null, failure: Step["failure"] = null): Step => ({
      taskId,
      instanceId: taskId,
      project: "p/one",
      verifiable,
      failure,
      runId: null,
    });
    const result = buildVerifiability(
      [
        step("s1", true),
        step("s2", true),
        step("s3", false, { kind: "missing_dependency", name: "f", line: "" }),
        step("s4", false, { kind: "semantic_mismatch", line: null }),
        step("s5", null),
      ],
      {},
    );
    expect(result.projects.rows[0]).toMatchObject({
      steps: 5,
      verifiable: 2,
      notVerifiable: 2,
      verifiableShare: 0.5,
      missingDependency: 1,
      semanticMismatch: 1,
      unmeasured: 1,
    });
    expect(result.failures.rows.map((r) => [r.step, r.cause])).toEqual([
      ["s3", "missing dependency: f"],
      ["s4", "semantic mismatch"],
    ]);
  });
});

describe("the revision loop", () => {
  const pair = (taskId: string, before: boolean | null, after: boolean | null): RevisionPair => ({
    taskId,
    instanceId: taskId,
    generator: "X",
    revisedGenerator: "X@2",
    reviewer: "A",
    before,
    after,
  });
  const PAIRS = [pair("p1", false, true), pair("p2", true, false), pair("p3", true, true), pair("p4", null, true)];

  it("resolve rate before and after revision over the pairs with both results, and the pairs a revision broke", () => {
    const { revisions, revisionPairs } = buildRevisionLoop(PAIRS, {});
    expect(revisions.rows).toHaveLength(1);
    expect(revisions.rows[0]).toMatchObject({ pairs: 4, measured: 3, fixed: 1, broke: 1 });
    expect(revisions.rows[0].resolveRateBefore).toBeCloseTo(2 / 3);
    expect(revisions.rows[0].resolveRateAfter).toBeCloseTo(2 / 3);
    expect(revisionPairs.rows.map((r) => r.change)).toEqual([
      "fixed by the revision",
      "broken by the revision",
      "still resolved",
      "not measured yet",
    ]);
    const broke = new URL(revisions.drill["A × X"].broke, "http://x").searchParams.get("slice")!;
    expect(
      selectItems(PAIRS, decodeSlice(broke)!.params, REVISION_DIMENSIONS, REVISION_OUTCOMES).map((p) => p.taskId),
    ).toEqual(["p2"]);
  });
});
