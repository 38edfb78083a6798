import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { splitDiffSections } from "@/lib/validation/diff-sections";
import { evaluateRun } from "@/lib/validation/evaluate-run";
import { evalScriptPaths, guardCandidatePatch } from "@/lib/validation/guard-candidate-patch";

const fixtures = path.resolve(import.meta.dirname, "../../fixtures/swe-bench");
type Instance = { instance_id: string; patch: string; test_patch: string };
const instances: Instance[] = ["swe-bench-lite-test.json", "swe-bench-dev-easy.json"].flatMap((file) =>
  JSON.parse(readFileSync(path.join(fixtures, file), "utf8")),
);

const file = (name: string, body: string[], mode = "") =>
  [
    `diff --git a/${name} b/${name}`,
    ...(mode ? [`new file mode ${mode}`] : []),
    "--- /dev/null",
    `+++ b/${name}`,
    `@@ -0,0 +1,${body.length} @@`,
    ...body.map((line) => `+${line}`),
  ].join("\n") + "\n";
const SOURCE_FIX = file("calc/fix.py", ["def mean(values):", "    raise ValueError('empty')"]);
const task = {
  testPatch: file("tests/test_ops.py", ["def test_x():", "    assert True"]),
  evalScript: "cd /testbed\npython3 -m pytest -rA tests ci/run_checks.sh\n",
};

describe("guardCandidatePatch: a candidate never changes the tests that judge it", () => {
  it("keeps real SWE-bench gold patches whole, pytest's own source included", () => {
    expect(instances.length).toBeGreaterThanOrEqual(8);
    for (const instance of instances) {
      const guarded = guardCandidatePatch(instance.patch, { testPatch: instance.test_patch, evalScript: "" });
      expect(guarded.protectedPaths, instance.instance_id).toEqual([]);
      expect(guarded.runnerHooks, instance.instance_id).toEqual([]);
      expect(splitDiffSections(guarded.patch).map((s) => s.text)).toEqual(
        splitDiffSections(instance.patch).map((s) => s.text),
      );
    }
  });

  it("leaves out the test patch's files when a real candidate also edits them, and keeps the fix", () => {
    for (const instance of instances) {
      const guarded = guardCandidatePatch(`${instance.patch}${instance.test_patch}`, {
        testPatch: instance.test_patch,
        evalScript: "",
      });
      const testPaths = splitDiffSections(instance.test_patch).flatMap((s) => s.paths);
      expect(guarded.protectedPaths, instance.instance_id).toEqual([...new Set(testPaths)].sort());
      expect(guarded.patch).not.toContain(testPaths[0]);
      expect(guarded.patch.length).toBeGreaterThan(0);
    }
  });

  it.each([
    ["a conftest.py in the repository root", file("conftest.py", ["def pytest_runtest_makereport(item, call): pass"])],
    ["a conftest.py in a parent directory of the tests", file("src/conftest.py", ["x = 1"])],
    ["the test file the test patch adds, edited", file("tests/test_ops.py", ["def test_x():", "    assert 1"])],
    ["a new test in a test directory", file("pkg/tests/test_new.py", ["def test_y(): pass"])],
    ["a tests/__init__.py hook", file("tests/__init__.py", ["import builtins"])],
    ["pytest.ini", file("pytest.ini", ["[pytest]", "addopts = -p calc.hook"])],
    ["setup.cfg", file("setup.cfg", ["[tool:pytest]", "addopts = -p calc.hook"])],
    ["tox.ini", file("tox.ini", ["[pytest]", "addopts = -p calc.hook"])],
    ["pyproject.toml", file("pyproject.toml", ["[tool.pytest.ini_options]", 'addopts = "-p calc.hook"'])],
    ["a sitecustomize.py", file("sitecustomize.py", ["import os"])],
    ["a .pth start-up file", file("venv/lib/python3.11/site-packages/evil.pth", ["import calc.hook"])],
    ["a module that shadows pytest", file("_pytest/runner.py", ["x = 1"])],
    ["a file the eval script runs", file("ci/run_checks.sh", ["exit 0"])],
    ["a test file named *_test.py outside a test directory", file("calc/ops_test.py", ["def test_z(): pass"])],
    ["a new top-level module that shadows the standard library", file("inspect.py", ["import sys"])],
    ["a new top-level package that shadows the standard library", file("json/__init__.py", ["import sys"])],
    ["git metadata (hooks, fsmonitor)", file(".git/hooks/post-checkout", ["#!/bin/sh"])],
  ])("leaves out %s", (_, section) => {
    const guarded = guardCandidatePatch(SOURCE_FIX + section, task);
    expect(guarded.protectedPaths).toHaveLength(1);
    expect(guarded.patch).toBe(SOURCE_FIX);
  });

  it("leaves out deletions, renames (both names), symlinks and paths that leave the repository", () => {
    const deletion =
      "diff --git a/tests/test_ops.py b/tests/test_ops.py\ndeleted file mode 100644\nindex 1..0\n--- a/tests/test_ops.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n";
    const renameOut =
      "diff --git a/tests/test_ops.py b/calc/moved.py\nsimilarity index 100%\nrename from tests/test_ops.py\nrename to calc/moved.py\n";
    const renameIn =
      "diff --git a/calc/evil.py b/calc/conftest.py\nsimilarity index 100%\nrename from calc/evil.py\nrename to calc/conftest.py\n";
    const symlink = file("calc/link.py", ["../tests/test_ops.py"], "120000");
    const escape = "--- a/../conftest.py\n+++ b/../conftest.py\n@@ -0,0 +1 @@\n+x\n";
    const guarded = guardCandidatePatch(SOURCE_FIX + deletion + renameOut + renameIn + symlink + escape, task);
    expect(guarded.patch).toBe(SOURCE_FIX);
    // a section is named by its protected paths: the test side of a rename, the link itself
    expect(guarded.protectedPaths).toEqual(["/conftest.py", "calc/conftest.py", "calc/link.py", "tests/test_ops.py"]);
  });

  it("reads every name a tool could use: a header that disagrees with its ---/+++ lines, quoted names, a plain diff", () => {
    const disagreeing =
      "diff --git a/calc/a.py b/calc/a.py\n--- a/calc/a.py\n+++ b/tests/test_ops.py\n@@ -0,0 +1 @@\n+x\n";
    const quoted =
      'diff --git "a/tests/t\\303\\251st.py" "b/tests/t\\303\\251st.py"\n--- "a/tests/t\\303\\251st.py"\n+++ "b/tests/t\\303\\251st.py"\n@@ -1 +1 @@\n-a\n+b\n';
    const plain =
      "--- repo.orig/calc/conftest.py\t2024-01-01\n+++ repo/calc/conftest.py\t2024-01-01\n@@ -0,0 +1 @@\n+x\n";
    // -p1 strips any first component: zz/pytest.py lands as pytest.py
    const oddPrefix = "--- zz/pytest.py\n+++ zz/pytest.py\n@@ -0,0 +1 @@\n+x\n";
    const guarded = guardCandidatePatch(SOURCE_FIX + disagreeing + quoted + plain + oddPrefix, task);
    expect(guarded.patch).toBe(SOURCE_FIX);
    expect(guarded.protectedPaths).toEqual(
      expect.arrayContaining(["tests/test_ops.py", "tests/tést.py", "calc/conftest.py", "pytest.py"]),
    );
  });

  it("drops what is not a unified diff (a commit message, a context diff) and keeps format-patch output applying", () => {
    const formatPatch = `From 1234 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] fix\n\n---\n calc/fix.py | 2 ++\n\n${SOURCE_FIX}-- \n2.39.0\n`;
    expect(guardCandidatePatch(formatPatch, task).patch).toBe(SOURCE_FIX);
    const context = "*** tests/test_ops.py\n--- tests/test_ops.py\n***************\n*** 1 ****\n! a\n--- 1 ----\n! b\n";
    expect(guardCandidatePatch(SOURCE_FIX + context, task).patch).toBe(SOURCE_FIX);
  });

  it("keeps a new module inside a package and an edit to an existing top-level module", () => {
    const inPackage = file("calc/stats.py", ["def median(values): ..."]);
    const existingTopLevel = "diff --git a/six.py b/six.py\n--- a/six.py\n+++ b/six.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n";
    const guarded = guardCandidatePatch(inPackage + existingTopLevel, task);
    expect(guarded).toMatchObject({ protectedPaths: [], patch: inPackage + existingTopLevel });
  });

  it("keeps a CRLF file's carriage returns, which git apply needs to match its lines", () => {
    const crlf =
      "diff --git a/calc/win.py b/calc/win.py\n--- a/calc/win.py\n+++ b/calc/win.py\n@@ -1 +1 @@\n-a = 1\r\n+a = 2\r\n";
    expect(guardCandidatePatch(crlf, task).patch).toBe(crlf);
  });

  it("reports source lines that reach into the test runner, with file and line", () => {
    const hook = [
      "diff --git a/calc/__init__.py b/calc/__init__.py",
      "--- a/calc/__init__.py",
      "+++ b/calc/__init__.py",
      "@@ -1 +1,3 @@",
      " from calc.ops import add",
      "+import _pytest.reports",
      "+_pytest.reports.TestReport.outcome = 'passed'",
      "",
    ].join("\n");
    const guarded = guardCandidatePatch(hook, task);
    expect(guarded.patch).toBe(hook);
    expect(guarded.runnerHooks.map((h) => `${h.path}:${h.line}`)).toEqual(["calc/__init__.py:2", "calc/__init__.py:3"]);
  });

  it("finds the files an eval script names, not flags, variables or absolute paths", () => {
    const script = [
      "#!/bin/bash",
      "set -uxo pipefail",
      "source /opt/miniconda3/bin/activate",
      "cd /testbed",
      "git checkout abc123 tests/sitemaps_tests/test_http.py",
      "./tests/runtests.py --verbosity 2 sitemaps_tests.test_http",
      "PYTHONWARNINGS='ignore::UserWarning' bin/test -C --verbose sympy/matrices/tests/test_sparse.py",
      "pytest -c ci/pytest.cfg --cov=src/calc tests/x.py::test_y",
      "pip install -e .",
      "make check",
    ].join("\n");
    expect([...evalScriptPaths(script)].sort()).toEqual(
      [
        "GNUmakefile",
        "Makefile",
        "bin/test",
        "ci/pytest.cfg",
        "makefile",
        "sitemaps_tests.test_http",
        "src/calc",
        "sympy/matrices/tests/test_sparse.py",
        "tests/runtests.py",
        "tests/sitemaps_tests/test_http.py",
        "tests/x.py",
      ].sort(),
    );
  });
});

describe("a guarded candidate's verdict", () => {
  const passingLog = "tests/test_ops.py::test_x PASSED\nOPENSWE_EXIT_CODE=0\n";
  const base = {
    kind: "CANDIDATE" as const,
    log: passingLog,
    evalScript: "pytest",
    failToPass: ["tests/test_ops.py::test_x"],
    passToPass: [],
    container: { exitCode: 0, timedOut: false, oomKilled: false },
  };

  it("a candidate that touched tests is flagged with the class and paths; its honest result stands", () => {
    const run = evaluateRun({
      ...base,
      guard: { protectedPaths: ["conftest.py", "tests/test_ops.py"], runnerHooks: [] },
    });
    expect(run).toMatchObject({
      resolved: true,
      failureClass: "CANDIDATE_TOUCHED_TESTS",
      touchedTestPaths: ["conftest.py", "tests/test_ops.py"],
    });
    expect(run.flags).toContain("CANDIDATE_CHANGES_TESTS");
    expect(run.reason).toContain("conftest.py, tests/test_ops.py");
  });

  it("a candidate that hooks the runner is never resolved, even when its tests pass", () => {
    const run = evaluateRun({
      ...base,
      guard: { protectedPaths: [], runnerHooks: [{ path: "calc/__init__.py", line: 2, text: "import _pytest" }] },
    });
    expect(run).toMatchObject({
      resolved: false,
      failureClass: "CANDIDATE_TOUCHED_TESTS",
      touchedTestPaths: ["calc/__init__.py:2"],
    });
    expect(run.flags).toContain("CANDIDATE_HOOKS_TEST_RUNNER");
  });

  it("a clean candidate has no flag and no class", () => {
    const run = evaluateRun({ ...base, guard: { protectedPaths: [], runnerHooks: [] } });
    expect(run).toMatchObject({ resolved: true, failureClass: null, flags: [], touchedTestPaths: [] });
  });
});
