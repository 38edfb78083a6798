import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectLogParser, parseTestLog, registerLogParser } from "@/lib/validation/parsers/log-parsers";
import { parseLogPytest } from "@/lib/validation/parsers/swe-bench-pytest";
import { parseUnittestLog } from "@/lib/validation/parsers/parse-unittest-log";
import { parseLogSympy } from "@/lib/validation/parsers/swe-bench-sympy";
import { parseGenericLog } from "@/lib/validation/parsers/parse-generic-log";

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "../../fixtures", name), "utf8");

describe("pytest -rA parser", () => {
  it("reads a real SWE-bench harness log as SWE-bench does, log records that start with ERROR included", () => {
    const results = parseLogPytest(fixture("harness/testlog_pytest__pytest-dev__pytest-5227.golden.eval.log"));
    expect(results.get("testing/logging/test_reporting.py::test_log_cli_auto_enable[--log-file-level=WARNING]")).toBe(
      "PASSED",
    );
    expect([...results.keys()].some((id) => id.startsWith("root:"))).toBe(true);
  });

  const log = [
    "tests/test_ops.py::test_add PASSED                                       [ 33%]",
    "tests/test_ops.py::test_mean FAILED                                      [ 66%]",
    "tests/test_ops.py::test_verbose_only PASSED                              [ 70%]",
    "=========================== short test summary info ============================",
    "PASSED tests/test_ops.py::test_add",
    "PASSED tests/test_ops.py::test_param[a b]",
    "FAILED tests/test_ops.py::test_mean - ZeroDivisionError: division by zero",
    "ERROR tests/test_ops.py::test_setup - fixture 'db' not found",
    "SKIPPED [1] tests/test_ops.py:40: needs numpy",
    "XFAIL tests/test_ops.py::test_known_bug",
    "\x1b[31mFAILED\x1b[0m tests/test_ops.py::test_colour - assert 1 == 2",
    "==================== 2 failed, 2 passed, 1 skipped in 0.12s ====================",
  ].join("\n");

  it("by default reads only summary lines, cuts ids at their first space and leaves coloured lines alone, as SWE-bench does", () => {
    expect(Object.fromEntries(parseLogPytest(log))).toEqual({
      "tests/test_ops.py::test_add": "PASSED",
      "tests/test_ops.py::test_mean": "FAILED",
      "tests/test_ops.py::test_param[a": "PASSED",
      "tests/test_ops.py::test_setup": "ERROR",
      "tests/test_ops.py::test_known_bug": "XFAIL",
    });
  });

  it("with the opt-in extras also reads -v progress lines, whole spaced ids and coloured lines", () => {
    expect(Object.fromEntries(parseTestLog(log, "pytest-lenient").results)).toEqual({
      "tests/test_ops.py::test_add": "PASSED",
      "tests/test_ops.py::test_mean": "FAILED",
      "tests/test_ops.py::test_verbose_only": "PASSED",
      "tests/test_ops.py::test_param[a b]": "PASSED",
      "tests/test_ops.py::test_setup": "ERROR",
      "tests/test_ops.py::test_known_bug": "XFAIL",
      "tests/test_ops.py::test_colour": "FAILED",
    });
  });
});

describe("unittest / Django parser", () => {
  it("reads verbosity-2 lines, docstring ids, late verdicts and FAIL:/ERROR: headers", () => {
    const log = [
      "test_help_text (auth_tests.test_validators.MinimumLengthValidatorTest) ... ok",
      "test_validate (auth_tests.test_validators.MinimumLengthValidatorTest) ... FAIL",
      "test_skip_me (auth_tests.test_validators.NumericTest) ... skipped 'no db'",
      "BaseCommand.create_parser() passes kwargs to CommandParser. ... ok",
      "test_prints (app.tests.NoisyTest) ... some output from the test",
      "ok",
      "test_broken (app.tests.BrokenTest) ... ERROR",
      "",
      "======================================================================",
      "FAIL: test_other (app.tests.LateTest)",
      "----------------------------------------------------------------------",
      "Ran 6 tests in 0.276s",
      "FAILED (failures=2, errors=1, skipped=1)",
    ].join("\n");
    expect(detectLogParser(log)).toBe("unittest");
    expect(Object.fromEntries(parseUnittestLog(log))).toEqual({
      "test_help_text (auth_tests.test_validators.MinimumLengthValidatorTest)": "PASSED",
      "test_validate (auth_tests.test_validators.MinimumLengthValidatorTest)": "FAILED",
      "test_skip_me (auth_tests.test_validators.NumericTest)": "SKIPPED",
      "BaseCommand.create_parser() passes kwargs to CommandParser.": "PASSED",
      "test_prints (app.tests.NoisyTest)": "PASSED",
      "test_broken (app.tests.BrokenTest)": "ERROR",
      "test_other (app.tests.LateTest)": "FAILED",
    });
  });
});

describe("sympy parser", () => {
  it("reads bin/test --verbose lines and failure headers as SWE-bench does: no [OK]-tailed line, headers keyed by file", () => {
    const log = [
      "============================= test process starts ==============================",
      "sympy/matrices/tests/test_sparse.py[4] ",
      "test_sparse_matrix ok",
      "test_transpose F",
      "test_trace E",
      "test_hermitian ok                                                           [FAIL]",
      "",
      "________________ sympy/matrices/tests/test_sparse.py:test_transpose ________________",
      "============ tests finished: 2 passed, 1 failed, 1 exceptions, in 2.56 seconds =============",
    ].join("\n");
    expect(detectLogParser(log)).toBe("sympy");
    expect(Object.fromEntries(parseLogSympy(log))).toEqual({
      "sympy/matrices/tests/test_sparse.py:test_transpose": "FAILED",
      test_sparse_matrix: "PASSED",
      test_transpose: "FAILED",
      test_trace: "ERROR",
    });
  });
});

describe("generic parser and the registry", () => {
  it("reads STATUS: id and id ... STATUS lines", () => {
    const log = "PASSED: suite/a\nFAILED suite/b\nsuite/c: ERROR\nsuite/d ... SKIPPED\nnoise line\n";
    expect(Object.fromEntries(parseGenericLog(log))).toEqual({
      "suite/a": "PASSED",
      "suite/b": "FAILED",
      "suite/c": "ERROR",
      "suite/d": "SKIPPED",
    });
  });

  it("falls back to the parser that recognises most tests, and accepts new parsers", () => {
    expect(parseTestLog("PASSED: x\nFAILED: y\n").results.size).toBe(2);
    registerLogParser(
      "tap",
      (log) => new Map([...log.matchAll(/^ok \d+ - (.+)$/gm)].map((m) => [m[1], "PASSED" as const])),
    );
    expect(parseTestLog("ok 1 - adds\nok 2 - subtracts\n", "tap").results.get("subtracts")).toBe("PASSED");
    expect(() => parseTestLog("", "nope")).toThrow(/Unknown log parser "nope"/);
  });
});
