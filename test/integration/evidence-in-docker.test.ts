import { describe, expect, it } from "vitest";
import { useDemoWorker } from "../helpers/demo-worker";
import { demoTaskWithAddedTest, patchAdding, SEEDED_FLAKY_TEST } from "../helpers/demo-added-tests";
import { dockerForTests } from "../helpers/docker";
import { waitForGroup } from "../helpers/worker";
import { NOT_BLIND } from "@/lib/auth/blind";
import { addEnvironmentRevision } from "@/lib/environments/add-revision";
import { flippedTests, taskEvidenceMatrix, type Flip } from "@/lib/runs/evidence-matrix";
import { requestValidation } from "@/lib/runs/request-validation";

// Why a test flipped, with real containers on the demo calculator: once because a curator's
// new recipe changed what the tests see, once with nothing changed at all (a test seeded
// with the repeat index, SEEDED_FLAKY_TEST as verdict-flaky-in-docker.test.ts uses it, so it flips every time).
const docker = await dockerForTests();

const STRICT_TEST = {
  id: "tests/test_mode.py::test_strict_mode_is_off",
  patch: patchAdding("tests/test_mode.py", [
    "import os",
    "",
    "",
    "def test_strict_mode_is_off():",
    '    assert os.environ.get("CALC_STRICT") != "1"',
  ]),
};
const STRICT_ID = STRICT_TEST.id;
const FLAKY_ID = SEEDED_FLAKY_TEST.id;

describe.skipIf(!docker.ready)("why a test flipped, in real containers", () => {
  const demo = useDemoWorker();
  const db = () => demo.database.prisma;

  /** The stored log's line a flip points to must name the test: that line decided it. */
  async function expectDecidingLines(flip: Flip) {
    for (const side of [flip.before, flip.after]) {
      const run = await db().validationRun.findUniqueOrThrow({ where: { id: side.runId } });
      expect(side.logLine, `run ${side.runId} names a deciding line`).not.toBeNull();
      expect(run.log!.split("\n")[side.logLine! - 1]).toContain(flip.testId);
    }
  }

  it("a test that fails after a curator's new recipe is explained as 'recipe changed', linked to both deciding lines", async () => {
    const task = await demoTaskWithAddedTest(demo, "demo__calc-evidence-recipe", STRICT_TEST);
    const before = await waitForGroup(
      db(),
      (await requestValidation(db(), { taskId: task.id, actorId: null })).groupId,
    );
    expect(before.map((run) => run.testResults.find((t) => t.testId === STRICT_ID)?.actual)).toEqual([
      "PASSED",
      "PASSED",
    ]);

    // revision 2: the same Dockerfile (so the same image), an eval script that turns strict mode on
    const environment = await db().environment.findUniqueOrThrow({
      where: { id: task.environmentId! },
      include: { currentRevision: true },
    });
    const current = environment.currentRevision!;
    const evalScript = current.evalScript.replace("cd /testbed", "cd /testbed\nexport CALC_STRICT=1");
    expect(evalScript).not.toBe(current.evalScript);
    await addEnvironmentRevision(db(), {
      environmentId: environment.id,
      number: current.number + 1,
      dockerfile: current.dockerfile,
      evalScript,
      reason: "strict mode",
      authorId: null,
    });
    const after = await waitForGroup(db(), (await requestValidation(db(), { taskId: task.id, actorId: null })).groupId);

    const matrix = await taskEvidenceMatrix(db(), task.id, NOT_BLIND);
    expect(matrix.runs).toHaveLength(4);
    for (const run of matrix.runs)
      expect(run).toMatchObject({
        engine: expect.any(String),
        imageId: expect.stringMatching(/^sha256:/),
        parserVersion: "pytest@1",
      });
    const row = matrix.tests.find((test) => test.testId === STRICT_ID)!;
    expect(row.cells.map((cell) => cell.actual)).toEqual(["PASSED", "PASSED", "FAILED", "FAILED"]);

    const flips = matrix.flips.filter((flip) => flip.testId === STRICT_ID);
    expect(flips.map((flip) => flip.kind).sort()).toEqual(["NEGATIVE_CONTROL", "POSITIVE_CONTROL"]);
    for (const flip of flips) {
      expect(flip.explanation).toMatchObject({
        cause: "changed",
        changed: ["recipe"],
        notRecorded: [],
        sentence: "Recipe changed",
      });
      await expectDecidingLines(flip);
    }
    // nothing else flipped: the recipe only touched this test
    expect(matrix.flips).toHaveLength(2);
    // what other tools ask: the flips the second validation brought
    expect(await flippedTests(db(), task.id, { runIds: after.map((run) => run.id) }, NOT_BLIND)).toHaveLength(2);
    expect(await flippedTests(db(), task.id, { runIds: before.map((run) => run.id) }, NOT_BLIND)).toEqual([]);
  });

  it("a test that flips between two attempts with the same recipe, image, host and parser is explained as flaky", async () => {
    const task = await demoTaskWithAddedTest(demo, "demo__calc-evidence-flaky", SEEDED_FLAKY_TEST);
    const startedAt = new Date();
    await waitForGroup(db(), (await requestValidation(db(), { taskId: task.id, actorId: null, repeats: 2 })).groupId);

    const matrix = await taskEvidenceMatrix(db(), task.id, NOT_BLIND);
    const flips = matrix.flips.filter((flip) => flip.testId === FLAKY_ID);
    expect(flips.map((flip) => `${flip.kind}: ${flip.before.actual} → ${flip.after.actual}`).sort()).toEqual([
      "NEGATIVE_CONTROL: FAILED → PASSED",
      "POSITIVE_CONTROL: FAILED → PASSED",
    ]);
    for (const flip of flips) {
      expect(flip.explanation).toMatchObject({ cause: "flaky", changed: [], notRecorded: [] });
      expect(flip.explanation.sentence).toMatch(/^Flaky/);
      await expectDecidingLines(flip);
    }
    expect(await flippedTests(db(), task.id, { date: startedAt }, NOT_BLIND)).toHaveLength(2);
  });
});
