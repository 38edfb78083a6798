import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testCommandFor, type SpecInstance } from "@/lib/environments/spec";

type SweBenchRow = {
  instance_id: string;
  repo: string;
  version: string;
  base_commit: string;
  environment_setup_commit: string;
  test_patch: string;
  patch: string;
  FAIL_TO_PASS: string | string[];
  PASS_TO_PASS: string | string[];
};

const liteRows = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "../../fixtures/swe-bench/swe-bench-lite-test.json"), "utf8"),
) as SweBenchRow[];

function instanceOf(row: SweBenchRow): SpecInstance {
  return {
    instanceId: row.instance_id,
    repo: row.repo,
    version: row.version,
    baseCommit: row.base_commit,
    environmentSetupCommit: row.environment_setup_commit,
    testPatch: row.test_patch,
    patch: row.patch,
    failToPass: testList(row.FAIL_TO_PASS),
    passToPass: testList(row.PASS_TO_PASS),
  };
}

// Published rows hold the test lists as JSON text; some mirrors hold them as arrays.
const testList = (value: string | string[]) => (typeof value === "string" ? (JSON.parse(value) as string[]) : value);

const row = (id: string) => instanceOf(liteRows.find((r) => r.instance_id === id)!);

describe("testCommandFor on SWE-bench Lite rows", () => {
  // Expected values printed by SWE-bench v4.1.0's MAP_REPO_VERSION_TO_SPECS[repo][version]["test_cmd"] and get_test_directives.
  it("gives Django's runner and dotted test modules relative to tests/", () => {
    expect(testCommandFor(row("django__django-16255"))).toEqual({
      ok: true,
      command: "./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1",
      directives: ["sitemaps_tests.test_http", "sitemaps_tests.urls.http"],
    });
  });

  it("gives sympy's bin/test with the test file paths", () => {
    expect(testCommandFor(row("sympy__sympy-13031"))).toEqual({
      ok: true,
      command: "PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' bin/test -C --verbose",
      directives: ["sympy/matrices/tests/test_sparse.py"],
    });
  });

  it("gives pytest for pytest and scikit-learn", () => {
    expect(testCommandFor(row("pytest-dev__pytest-11143"))).toEqual({
      ok: true,
      command: "pytest -rA",
      directives: ["testing/test_assertrewrite.py"],
    });
    expect(testCommandFor(row("scikit-learn__scikit-learn-13584"))).toEqual({
      ok: true,
      command: "pytest -rA",
      directives: ["sklearn/utils/tests/test_pprint.py"],
    });
  });
});
