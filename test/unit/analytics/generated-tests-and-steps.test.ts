import { describe, expect, it } from "vitest";
import { buildGeneratedTestAnalytics, GeneratedTestQuerySchema, type GeneratedTest } from "@/lib/analytics/generated-tests";
import { buildVerifiability, classifyStepFailure, type Step } from "@/lib/analytics/verifiability";
import { controlOutcome } from "@/lib/analytics/control-runs";

const run = { id: "r", failureClass: null, finishedAt: null };
const test = (taskId: string, generator: string, attacks: boolean | null, accurate: boolean | null): GeneratedTest => ({
  taskId,
  instanceId: taskId,
  generator,
  repository: "o/r",
  generatedFor: "demo__calc-1",
  attacks,
  accurate,
  negativeRun: attacks === null ? null : run,
  positiveRun: accurate === null ? null : run,
});

describe("generated tests", () => {
  const result = buildGeneratedTestAnalytics(
    [test("t1", "X", true, true), test("t2", "X", true, false), test("t3", "X", false, true), test("t4", "X", null, null), test("t5", "Y", true, true)],
    GeneratedTestQuerySchema.parse({}),
  );

  it("attack rate, output accuracy and accuracy ∩ attack over the tests whose runs measured them", () => {
    const x = result.rates.rows.find((r) => r.key === "X")!;
    expect(x).toMatchObject({ tests: 4, attacks: 2, accurate: 2, valid: 1, unmeasured: 1 });
    expect(x.attackRate).toBeCloseTo(2 / 3);
    expect(x.accuracy).toBeCloseTo(2 / 3);
    expect(x.validRate).toBeCloseTo(1 / 3);
    expect(result.rates.rows.find((r) => r.key === "Y")).toMatchObject({ tests: 1, attackRate: 1, accuracy: 1, validRate: 1 });
  });

  it("says per test what each run showed", () => {
    expect(result.tests.rows.find((r) => r.key === "t2")).toMatchObject({ withoutFix: "fails (attacks)", withFix: "fails (inaccurate)", verdict: "not valid" });
    expect(result.tests.rows.find((r) => r.key === "t4")).toMatchObject({ withoutFix: "not run", verdict: "not measured yet" });
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
    expect(classifyStepFailure("AttributeError: module 'pkg.util' has no attribute 'helper'", PATCH)).toMatchObject({ kind: "missing_dependency", name: "helper" });
    expect(classifyStepFailure("ModuleNotFoundError: No module named 'pkg.lexing'", PATCH)).toMatchObject({ kind: "missing_dependency", name: "pkg.lexing" });
  });

  it("an error about a name the step declares, or a wrong value, is a semantic mismatch", () => {
    expect(classifyStepFailure("ImportError: cannot import name 'Lexer' from 'pkg'", PATCH)).toEqual({ kind: "semantic_mismatch", line: "ImportError: cannot import name 'Lexer' from 'pkg'" });
    expect(classifyStepFailure("tests/test_parse.py F\nE       assert 3 == 4\n", PATCH)).toEqual({ kind: "semantic_mismatch", line: "E       assert 3 == 4" });
  });

  it("the verifiable share counts only steps whose ground truth ran its tests", () => {
    const step = (taskId: string, verifiable: boolean | null, failure: Step["failure"] = null): Step => ({ taskId, instanceId: taskId, project: "p/one", verifiable, failure, runId: null });
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
    expect(result.projects.rows[0]).toMatchObject({ steps: 5, verifiable: 2, notVerifiable: 2, verifiableShare: 0.5, missingDependency: 1, semanticMismatch: 1, unmeasured: 1 });
    expect(result.failures.rows.map((r) => [r.step, r.cause])).toEqual([
      ["s3", "missing dependency: f"],
      ["s4", "semantic mismatch"],
    ]);
  });
});
