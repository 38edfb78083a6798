import { describe, expect, it } from "vitest";
import { findExitCodeMarker, sliceTestOutput } from "@/lib/validation/exit-code-markers";
import { detectForcedExitCode } from "@/lib/validation/detect-forced-exit-code";

describe("exit-code markers", () => {
  it("reads OpenSWE's marker only from its own line, not from the xtrace echo", () => {
    expect(findExitCodeMarker("+ echo OPENSWE_EXIT_CODE=0\nOPENSWE_EXIT_CODE=1\n")).toEqual({
      code: 1,
      marker: "OPENSWE_EXIT_CODE",
    });
    expect(findExitCodeMarker("the test printed OPENSWE_EXIT_CODE=0 inline")).toBeNull();
  });

  it("reads SWE-bench v5's line and its shell variable under set -x; the latest marker wins", () => {
    expect(findExitCodeMarker(">>>>> End Test Output\n>>>>> Test Exit Code: 2\n")).toEqual({
      code: 2,
      marker: "SWEBENCH_V5",
    });
    expect(findExitCodeMarker("+ SWEBENCH_TEST_EXIT_CODE=1\n")).toEqual({ code: 1, marker: "SWEBENCH_TEST_EXIT_CODE" });
    expect(findExitCodeMarker("OPENSWE_EXIT_CODE=1\n>>>>> Test Exit Code: 0\n")?.code).toBe(0);
  });

  it("slices the test output between Start/End markers, also when they are xtrace lines", () => {
    const log = "setup noise\n+ : '>>>>> Start Test Output'\nPASSED a\n+ : '>>>>> End Test Output'\nafter\n";
    expect(sliceTestOutput(log)).toBe("PASSED a\n");
    expect(sliceTestOutput("no markers")).toBeNull();
    expect(sliceTestOutput("WARNING >>>>> START >>>>> from a conftest\n")).toBeNull();
  });
});

describe("forced exit codes in eval scripts", () => {
  it("flags the demo's broken recipe: || true on pytest, a constant marker and exit 0", () => {
    const script = [
      "#!/bin/bash",
      "# exit 0 in a comment does not count",
      "cd /testbed",
      "python3 -m pytest -rA -p no:cacheprovider tests || true",
      'echo "OPENSWE_EXIT_CODE=0"',
      "exit 0",
    ].join("\n");
    expect(detectForcedExitCode(script).map((finding) => finding.line)).toEqual([4, 5, 6]);
  });

  it("leaves a sound script alone, and ignores patches embedded in heredocs", () => {
    const script = [
      "cd /testbed",
      "git apply -v - <<'EOF_114329324912'",
      "+    exit 0",
      "+    pytest || true",
      "EOF_114329324912",
      "python3 -m pytest -rA tests",
      'echo "OPENSWE_EXIT_CODE=$?"',
    ].join("\n");
    expect(detectForcedExitCode(script)).toEqual([]);
  });
});
