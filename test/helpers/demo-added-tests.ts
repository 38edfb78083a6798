import type { DemoWorker } from "./demo-worker";

/** A test patch that adds `file` with these lines. */
export const patchAdding = (file: string, lines: string[]) =>
  [
    `diff --git a/${file} b/${file}`,
    "new file mode 100644",
    "--- /dev/null",
    `+++ b/${file}`,
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((l) => `+${l}`),
    "",
  ].join("\n");

export type AddedTest = { id: string; patch: string };

/**
 * A test that fails at random, seeded with the repeat index the worker gives each attempt
 * (SWE_CURATOR_ATTEMPT): attempt 0 draws 0.84 and fails, attempt 1 draws 0.13 and passes, every
 * time. Its flip is real (two containers, two outcomes) and the test using it cannot flake itself.
 */
export const SEEDED_FLAKY_TEST: AddedTest = {
  id: "tests/test_stability.py::test_mean_is_stable",
  patch: patchAdding("tests/test_stability.py", [
    "import os",
    "import random",
    "",
    "",
    "def test_mean_is_stable():",
    '    random.seed(int(os.environ.get("SWE_CURATOR_ATTEMPT", "0")))',
    "    assert random.random() < 0.5",
  ]),
};

/** A copy of the demo's valid calculator task with one more test that must pass before and after the fix. */
export function demoTaskWithAddedTest(demo: DemoWorker, instanceId: string, test: AddedTest) {
  const good = demo.tasks["demo__calc-1"];
  return demo.database.prisma.task.create({
    data: {
      instanceId,
      environmentId: good.environmentId,
      source: "DEMO",
      problemStatement: good.problemStatement,
      fixPatch: good.fixPatch,
      testPatch: good.testPatch + test.patch,
      failToPass: good.failToPass,
      passToPass: [...good.passToPass, test.id],
    },
  });
}
