import { describe, expect, it } from "vitest";
import { derivedEvalScript, evalScriptFor, testCommandOf, testFilesOf } from "@/lib/environments/derived-eval-script";
import { findExitCodeMarker, sliceTestOutput } from "@/lib/validation/exit-code-markers";

const TEST_PATCH = [
  "diff --git a/tests/test_ops.py b/tests/test_ops.py",
  "--- a/tests/test_ops.py",
  "+++ b/tests/test_ops.py",
  "diff --git a/tests/data/cases.json b/tests/data/cases.json",
  "diff --git a/tests/test it.py b/tests/test it.py",
].join("\n");

describe("the eval script derived from a task (IMAGE and SPEC environments)", () => {
  it("runs the test patch's test files, as SWE-bench's harness does, leaving data files out", () => {
    expect(testFilesOf(TEST_PATCH)).toEqual(["tests/test_ops.py"]);
  });

  it("takes a SWE-rebench row's test command from its install_config, as a string or a JSON-encoded object", () => {
    const metadata = { install_config: { test_cmd: "pytest --no-header -rA --tb=no -p no:cacheprovider" } };
    expect(testCommandOf({ instanceId: "a__b-1", testPatch: TEST_PATCH, metadata })).toEqual({
      command: "pytest --no-header -rA --tb=no -p no:cacheprovider",
      directives: ["tests/test_ops.py"],
      from: "the row's install_config.test_cmd",
    });
    expect(
      testCommandOf({
        instanceId: "a__b-1",
        testPatch: "",
        metadata: { install_config: JSON.stringify({ test_cmd: ["tox -e py"] }) },
      }).command,
    ).toBe("tox -e py");
    expect(testCommandOf({ instanceId: "a__b-1", testPatch: "", metadata: null }).command).toBe("pytest -rA");
  });

  it("prints the markers the evaluation reads, in /testbed, with the test command's real exit code", () => {
    const script = derivedEvalScript({ instanceId: "a__b-1", testPatch: TEST_PATCH, metadata: null });
    expect(script).toContain("cd /testbed\n");
    expect(script).toContain("pytest -rA tests/test_ops.py\nrc=$?\n");
    const log = `>>>>> Start Test Output\nPASSED tests/test_ops.py::test_add\n>>>>> End Test Output\nOPENSWE_EXIT_CODE=1\n`;
    expect(findExitCodeMarker(log)).toEqual({ code: 1, marker: "OPENSWE_EXIT_CODE" });
    expect(sliceTestOutput(log)).toBe("PASSED tests/test_ops.py::test_add\n");
    expect(script).not.toMatch(/exit 0|\|\| true/);
  });

  it("keeps a recipe's own eval script", () => {
    const task = { instanceId: "x", testPatch: TEST_PATCH, metadata: null };
    expect(evalScriptFor({ evalScript: "mine", environment: { imageSource: "RECIPE" } }, task)).toBe("mine");
    expect(evalScriptFor({ evalScript: "mine", environment: { imageSource: "IMAGE" } }, task)).toContain(
      "OPENSWE_EXIT_CODE=$rc",
    );
  });
});
