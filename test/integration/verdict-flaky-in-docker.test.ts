import { describe, expect, it } from "vitest";
import { useDemoWorker } from "../helpers/demo-worker";
import { dockerForTests } from "../helpers/docker";
import { waitForGroup } from "../helpers/worker";
import { requestValidation } from "@/lib/runs/request-validation";

// Flaky detection with real containers: a demo task whose test patch adds a test that
// fails at random — seeded with the repeat index the worker gives each attempt
// (SWE_CURATOR_ATTEMPT), so attempt 0 draws 0.84 and fails while attempt 1 draws 0.13 and
// passes, every time. The disagreement is real (two containers, two outcomes) and this
// test cannot flake itself.
const docker = await dockerForTests();

const FLAKY_TEST = [
  "import os",
  "import random",
  "",
  "",
  "def test_mean_is_stable():",
  '    random.seed(int(os.environ.get("SWE_CURATOR_ATTEMPT", "0")))',
  "    assert random.random() < 0.5",
];
const FLAKY_TEST_PATCH = [
  "diff --git a/tests/test_stability.py b/tests/test_stability.py",
  "new file mode 100644",
  "--- /dev/null",
  "+++ b/tests/test_stability.py",
  `@@ -0,0 +1,${FLAKY_TEST.length} @@`,
  ...FLAKY_TEST.map((line) => `+${line}`),
  "",
].join("\n");
const FLAKY_ID = "tests/test_stability.py::test_mean_is_stable";

describe.skipIf(!docker.ready)("flaky detection in real containers", () => {
  const demo = useDemoWorker();

  async function flakyTask(instanceId: string) {
    const good = demo.tasks["demo__calc-1"];
    return demo.database.prisma.task.create({
      data: {
        instanceId,
        environmentId: good.environmentId,
        source: "DEMO",
        problemStatement: good.problemStatement,
        fixPatch: good.fixPatch,
        testPatch: good.testPatch + FLAKY_TEST_PATCH,
        failToPass: good.failToPass,
        passToPass: [...good.passToPass, FLAKY_ID],
      },
    });
  }

  it("a test whose outcome differs between repeats makes the task FLAKY, naming the test", async () => {
    const task = await flakyTask("demo__calc-flaky");
    const { groupId } = await requestValidation(demo.database.prisma, { taskId: task.id, actorId: null, repeats: 2 });
    const runs = await waitForGroup(demo.database.prisma, groupId);
    expect(runs.map((r) => `${r.kind}#${r.attempt}`).sort()).toEqual([
      "NEGATIVE_CONTROL#0",
      "NEGATIVE_CONTROL#1",
      "POSITIVE_CONTROL#0",
      "POSITIVE_CONTROL#1",
    ]);

    // the same test, two outcomes: failed on attempt 0, passed on attempt 1, in both kinds
    const outcome = (kind: string, attempt: number) =>
      runs.find((r) => r.kind === kind && r.attempt === attempt)!.testResults.find((t) => t.testId === FLAKY_ID)
        ?.actual;
    for (const kind of ["NEGATIVE_CONTROL", "POSITIVE_CONTROL"])
      expect([outcome(kind, 0), outcome(kind, 1)]).toEqual(["FAILED", "PASSED"]);

    const settled = await demo.database.prisma.task.findUniqueOrThrow({ where: { id: task.id } });
    expect(settled).toMatchObject({ automatedVerdict: "FLAKY", failureClass: null });
    for (const run of runs) expect(run.flags).toContain("FLAKY");
    const audit = await demo.database.prisma.auditEvent.findFirstOrThrow({
      where: { entityId: task.id, action: "verdict.automated" },
      orderBy: { createdAt: "desc" },
    });
    expect(audit.after).toMatchObject({ automatedVerdict: "FLAKY", flakyTests: [FLAKY_ID] });
  });

  it("one attempt alone cannot tell: the same task validated once is not FLAKY", async () => {
    const task = await flakyTask("demo__calc-flaky-once");
    const { groupId } = await requestValidation(demo.database.prisma, { taskId: task.id, actorId: null });
    const runs = await waitForGroup(demo.database.prisma, groupId);
    for (const run of runs) expect(run.flags).not.toContain("FLAKY");
    // attempt 0 draws the failing number: a steady failure of a PASS_TO_PASS test
    expect(await demo.database.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({
      automatedVerdict: "INVALID",
      failureClass: "POSITIVE_CONTROL_FAILED",
    });
  });
});
