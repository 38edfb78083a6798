import { describe, expect, it } from "vitest";
import { useDemoWorker } from "../helpers/demo-worker";
import { demoTaskWithAddedTest, SEEDED_FLAKY_TEST } from "../helpers/demo-added-tests";
import { dockerForTests } from "../helpers/docker";
import { waitForGroup } from "../helpers/worker";
import { requestValidation } from "@/lib/runs/request-validation";

// Flaky detection with real containers: a demo task whose test patch adds a test that
// fails at random, seeded with the repeat index so it fails on attempt 0 and passes on
// attempt 1 every time (SEEDED_FLAKY_TEST).
const docker = await dockerForTests();

const FLAKY_ID = SEEDED_FLAKY_TEST.id;

describe.skipIf(!docker.ready)("flaky detection in real containers", () => {
  const demo = useDemoWorker();

  const flakyTask = (instanceId: string) => demoTaskWithAddedTest(demo, instanceId, SEEDED_FLAKY_TEST);

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
