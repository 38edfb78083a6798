import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { getTrajectoryStep, listTrajectorySteps, STEP_PREVIEW_CHARS } from "../../lib/trajectories/get-trajectory";
import { scoreReviewers } from "../../lib/trajectories/score-reviewers";

let db: TestDatabase;
let trajectoryId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const repository = await db.prisma.repository.create({ data: { owner: "o", name: "r" } });
  const environment = await db.prisma.environment.create({ data: { key: "o/r@abc", repositoryId: repository.id, baseCommit: "abc" } });
  const task = await db.prisma.task.create({ data: { instanceId: "o__r-1", environmentId: environment.id, problemStatement: "p", fixPatch: "", testPatch: "" } });
  const good = await db.prisma.candidatePatch.create({ data: { taskId: task.id, generator: "good-model", patch: "+fix", resolved: true } });
  const symptom = await db.prisma.candidatePatch.create({ data: { taskId: task.id, generator: "symptom-model", patch: "+hide", resolved: false } });
  const pending = await db.prisma.candidatePatch.create({ data: { taskId: task.id, generator: "new-model", patch: "+?" } });
  const reviewer = (externalId: string, candidatePatchId: string, decision: "APPROVE" | "REQUEST_CHANGES") =>
    db.prisma.trajectory.create({ data: { externalId, taskId: task.id, candidatePatchId, role: "REVIEWER", format: "OTHER", model: "reviewer-x", decision, confidence: 0.7 } });
  await reviewer("rev-1", good.id, "APPROVE");
  await reviewer("rev-2", symptom.id, "APPROVE"); // approved a symptom fix: a false approval
  await reviewer("rev-3", pending.id, "REQUEST_CHANGES");
  const solver = await db.prisma.trajectory.create({ data: { externalId: "solve-1", taskId: task.id, role: "SOLVER", format: "SWE_AGENT", stepCount: 450 } });
  trajectoryId = solver.id;
  await db.prisma.trajectoryStep.createMany({
    data: Array.from({ length: 450 }, (_, index) => ({ trajectoryId, index, action: `cat file_${index}.py`, observation: index === 7 ? "x".repeat(50_000) : "ok" })),
  });
});
afterAll(async () => db.drop());

describe("the trajectory inspector's data", () => {
  it("pages through steps in order, cutting megabyte observations to a preview", async () => {
    const first = await listTrajectorySteps(db.prisma, trajectoryId, { from: 0, limit: 200 });
    expect(first).toHaveLength(200);
    expect(first[7].observation).toMatchObject({ truncated: true, length: 50_000 });
    expect(first[7].observation.text).toHaveLength(STEP_PREVIEW_CHARS);
    const last = await listTrajectorySteps(db.prisma, trajectoryId, { from: 400, limit: 200 });
    expect(last.map((s) => s.index)).toEqual(Array.from({ length: 50 }, (_, i) => 400 + i));
    expect((await getTrajectoryStep(db.prisma, trajectoryId, 7)).observation).toHaveLength(50_000);
  });

  it("says which step is missing", async () => {
    await expect(getTrajectoryStep(db.prisma, trajectoryId, 9999)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("reviewer scores", () => {
  it("score each reviewer against the validated candidate patches only", async () => {
    const [score] = await scoreReviewers(db.prisma);
    expect(score).toMatchObject({ reviewer: "reviewer-x", truePositive: 1, falsePositive: 1, scored: 2, awaitingGroundTruth: 1, accuracy: 0.5 });
  });
});
