import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import {
  getTrajectory,
  getTrajectoryStep,
  listStepWindow,
  STEP_SUMMARY_CHARS,
} from "../../lib/trajectories/get-trajectory";
import { searchTrajectorySteps } from "../../lib/trajectories/search-steps";
import { classifyStep } from "../../lib/trajectories/step-kind";
import { annotateStep, labelCounts, setAnnotationLabels, stepsWithLabel } from "../../lib/trajectories/annotations";
import { editsUpTo } from "../../lib/trajectories/trajectory-edits";
import { scoreReviewers } from "../../lib/trajectories/score-reviewers";
import { NOT_BLIND } from "../../lib/auth/blind";

let db: TestDatabase;
let trajectoryId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const repository = await db.prisma.repository.create({ data: { owner: "o", name: "r" } });
  const environment = await db.prisma.environment.create({
    data: { key: "o/r@abc", repositoryId: repository.id, baseCommit: "abc" },
  });
  const task = await db.prisma.task.create({
    data: { instanceId: "o__r-1", environmentId: environment.id, problemStatement: "p", fixPatch: "", testPatch: "" },
  });
  const good = await db.prisma.candidatePatch.create({
    data: { taskId: task.id, generator: "good-model", patch: "+fix", resolved: true },
  });
  const symptom = await db.prisma.candidatePatch.create({
    data: { taskId: task.id, generator: "symptom-model", patch: "+hide", resolved: false },
  });
  const pending = await db.prisma.candidatePatch.create({
    data: { taskId: task.id, generator: "new-model", patch: "+?" },
  });
  const reviewer = (externalId: string, candidatePatchId: string, decision: "APPROVE" | "REQUEST_CHANGES") =>
    db.prisma.trajectory.create({
      data: {
        externalId,
        taskId: task.id,
        candidatePatchId,
        role: "REVIEWER",
        format: "OTHER",
        model: "reviewer-x",
        decision,
        confidence: 0.7,
      },
    });
  await reviewer("rev-1", good.id, "APPROVE");
  await reviewer("rev-2", symptom.id, "APPROVE"); // approved a symptom fix: a false approval
  await reviewer("rev-3", pending.id, "REQUEST_CHANGES");
  const solver = await db.prisma.trajectory.create({
    data: { externalId: "solve-1", taskId: task.id, role: "SOLVER", format: "SWE_AGENT", stepCount: 450 },
  });
  trajectoryId = solver.id;
  // every tenth step runs the tests, step 7 has a 50,000-character observation, one step names a rare word
  const action = (index: number) =>
    index % 10 === 3 ? `python -m pytest tests/test_${index}.py` : index === 449 ? "submit" : `cat file_${index}.py`;
  const observation = (index: number) =>
    index === 7
      ? "x".repeat(50_000)
      : index === 311
        ? "AttributeError: 'Frobnicator' object has no attribute 'quux'"
        : "ok";
  await db.prisma.trajectoryStep.createMany({
    data: Array.from({ length: 450 }, (_, index) => {
      const step = { thought: null, action: action(index), observation: observation(index) };
      return { trajectoryId, index, ...step, kind: classifyStep(step) };
    }),
  });
});
afterAll(async () => db.drop());

describe("the trajectory inspector's data", () => {
  it("answers any window of the list in one query, each row cut to its first words", async () => {
    const first = await listStepWindow(db.prisma, trajectoryId, { from: 0, limit: 100 });
    expect(first.items.map((s) => s.index)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(first.items[7].summary).toBe("cat file_7.py");
    const last = await listStepWindow(db.prisma, trajectoryId, { from: 400, limit: 100 });
    expect(last.items.map((s) => s.index)).toEqual(Array.from({ length: 50 }, (_, i) => 400 + i));
    // around a step: the window that holds it, and where it stands
    const around = await listStepWindow(db.prisma, trajectoryId, { from: 0, at: 449, limit: 100 });
    expect(around).toMatchObject({ offset: 400, position: 449 });
    expect(around.items.at(-1)).toMatchObject({ index: 449, kind: "SUBMIT", summary: "submit" });
    const long = await db.prisma.trajectoryStep.update({
      where: { trajectoryId_index: { trajectoryId, index: 8 } },
      data: { action: "y".repeat(10_000) },
    });
    expect((await listStepWindow(db.prisma, trajectoryId, { from: 0, limit: 10 })).items[8].summary).toHaveLength(
      STEP_SUMMARY_CHARS,
    );
    expect((await getTrajectoryStep(db.prisma, trajectoryId, 7)).observation).toHaveLength(50_000);
    expect((await getTrajectoryStep(db.prisma, trajectoryId, long.index)).action).toHaveLength(10_000);
  });

  it("counts steps per kind and lists one kind, locating a step within it", async () => {
    const detail = await getTrajectory(db.prisma, trajectoryId, NOT_BLIND);
    expect(detail.kindCounts).toEqual({ TEST: 45, SUBMIT: 1, READ: 404 });
    const tests = await listStepWindow(db.prisma, trajectoryId, { from: 40, limit: 100, kind: "TEST" });
    expect(tests.items.map((s) => s.index)).toEqual([403, 413, 423, 433, 443]);
    // step 250 is not a test run: the next test run (253) is where it lands
    const located = await listStepWindow(db.prisma, trajectoryId, { from: 0, at: 250, limit: 10, kind: "TEST" });
    expect(located).toMatchObject({ offset: 20, position: 25 });
    expect(located.items[5]).toMatchObject({ index: 253, kind: "TEST" });
  });

  it("searches the steps' words on the server, with a count, and parts of words and expressions too", async () => {
    expect(await searchTrajectorySteps(db.prisma, trajectoryId, { q: "Frobnicator", regex: "0" })).toEqual({
      count: 1,
      matches: [311],
      mode: "words",
    });
    const pytest = await searchTrajectorySteps(db.prisma, trajectoryId, { q: "pytest", regex: "0" });
    expect(pytest).toMatchObject({ count: 45, mode: "words" });
    expect(pytest.matches.slice(0, 3)).toEqual([3, 13, 23]);
    expect(
      await searchTrajectorySteps(db.prisma, trajectoryId, { q: "pytest", regex: "0", kind: "READ" }),
    ).toMatchObject({ count: 0 });
    // part of an identifier: not a word of the vector, found in the text
    expect(await searchTrajectorySteps(db.prisma, trajectoryId, { q: "bnicat", regex: "0" })).toEqual({
      count: 1,
      matches: [311],
      mode: "text",
    });
    expect(await searchTrajectorySteps(db.prisma, trajectoryId, { q: "test_4[0-9]3\\.py", regex: "1" })).toMatchObject({
      count: 5,
      matches: [403, 413, 423, 433, 443],
    });
    await expect(searchTrajectorySteps(db.prisma, trajectoryId, { q: "file_(", regex: "1" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/not a valid regular expression/),
    });
  });

  it("says which step is missing", async () => {
    await expect(getTrajectoryStep(db.prisma, trajectoryId, 9999)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("annotations", () => {
  it("labels steps from the configured set, refuses other labels plainly, and lists and counts them per model", async () => {
    const curator = await db.prisma.user.create({ data: { email: "c@x", name: "Cora", role: "CURATOR" } });
    await setAnnotationLabels(db.prisma, curator.id, ["accepted a symptom fix", "ran a reproducer"]);
    const reviewer = await db.prisma.trajectory.findUniqueOrThrow({ where: { externalId: "rev-2" } });
    await db.prisma.trajectoryStep.create({ data: { trajectoryId: reviewer.id, index: 0, action: "submit" } });
    await annotateStep(db.prisma, curator.id, reviewer.id, {
      stepIndex: 0,
      label: "accepted a symptom fix",
      comment: "approved a patch that hides the error",
    });
    await annotateStep(db.prisma, curator.id, trajectoryId, { stepIndex: 311, label: "accepted a symptom fix" });
    await annotateStep(db.prisma, curator.id, trajectoryId, { stepIndex: 3, comment: "only a comment" });
    await expect(
      annotateStep(db.prisma, curator.id, trajectoryId, { stepIndex: 3, label: "lazy" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/"lazy" is not one of the configured labels/),
    });
    await expect(
      annotateStep(db.prisma, curator.id, trajectoryId, { stepIndex: 9_999, label: "ran a reproducer" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });

    const counts = await labelCounts(db.prisma);
    expect(counts.find((c) => c.label === "accepted a symptom fix")).toMatchObject({
      count: 2,
      byModel: expect.arrayContaining([
        { model: "reviewer-x", role: "REVIEWER", count: 1 },
        { model: "unknown model", role: "SOLVER", count: 1 },
      ]),
    });
    expect(counts.find((c) => c.label === "ran a reproducer")).toMatchObject({ count: 0 });
    const listed = await stepsWithLabel(db.prisma, { label: "accepted a symptom fix", limit: 50 }, NOT_BLIND);
    expect(listed.items.map((a) => [a.trajectory.externalId, a.stepIndex])).toEqual([
      ["solve-1", 311],
      ["rev-2", 0],
    ]);
  });
});

describe("edits up to a step", () => {
  it("lists every edit so far, by step, with its file", async () => {
    const edited = await db.prisma.trajectory.create({
      data: { externalId: "edits-1", role: "SOLVER", format: "SWE_AGENT" },
    });
    const steps = [
      { action: "create reproduce.py" },
      { action: "str_replace_editor str_replace /testbed/a.py --old_str 'x = 1' --new_str 'x = 2'" },
      { action: "python reproduce.py" },
      { action: `str_replace_editor({"command":"create","path":"/testbed/b.py","file_text":"print(1)"})` },
    ];
    await db.prisma.trajectoryStep.createMany({
      data: steps.map((s, index) => ({
        trajectoryId: edited.id,
        index,
        ...s,
        observation: "ok",
        kind: classifyStep({ thought: null, observation: "ok", ...s }),
      })),
    });
    expect((await editsUpTo(db.prisma, edited.id, 2)).map((e) => [e.index, e.path, e.operation])).toEqual([
      [0, "reproduce.py", "create"],
      [1, "/testbed/a.py", "replace"],
    ]);
    expect((await editsUpTo(db.prisma, edited.id, 3)).at(-1)).toMatchObject({
      index: 3,
      path: "/testbed/b.py",
      after: "print(1)",
    });
  });
});

describe("reviewer scores", () => {
  it("score each reviewer against the validated candidate patches only", async () => {
    const [score] = await scoreReviewers(db.prisma, NOT_BLIND);
    expect(score).toMatchObject({
      reviewer: "reviewer-x",
      truePositive: 1,
      falsePositive: 1,
      scored: 2,
      awaitingGroundTruth: 1,
      accuracy: 0.5,
    });
  });
});
