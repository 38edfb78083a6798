import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { blindSetOf, NOT_BLIND } from "@/lib/auth/blind";
import { EVIDENCE_DEMO_TASK, seedEvidenceDemo } from "@/lib/runs/demo-evidence";
import { taskEvidenceMatrix } from "@/lib/runs/evidence-matrix";

// The demo's evidence matrix, as a fresh `npm start` shows it on the task page.
describe("the evidence demo", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await loadDemoTasks(database.prisma);
    await seedEvidenceDemo(database.prisma, () => {});
  });
  afterAll(() => database?.drop());

  it("shows a flip explained 'recipe changed', flips explained flaky, and an older run whose inputs were not recorded", async () => {
    const task = await database.prisma.task.findUniqueOrThrow({ where: { instanceId: EVIDENCE_DEMO_TASK } });
    const matrix = await taskEvidenceMatrix(database.prisma, task.id, NOT_BLIND);
    const sentences = matrix.flips.map(
      (flip) => `${flip.testId.split("::")[1]} ${flip.kind}: ${flip.explanation.sentence}`,
    );
    expect(sentences).toContain("test_strict_mode_is_off NEGATIVE_CONTROL: Recipe changed");
    expect(sentences).toContain("test_strict_mode_is_off POSITIVE_CONTROL: Recipe changed");
    expect(matrix.flips.filter((flip) => flip.explanation.cause === "flaky").map((flip) => flip.testId)).toContain(
      "tests/test_stability.py::test_mean_is_stable",
    );
    expect(matrix.flips.every((flip) => flip.explanation.cause !== "unknown")).toBe(true);
    expect(matrix.runs[0]).toMatchObject({ engine: null, imageId: null, parserVersion: null });
    expect(matrix.runs.at(-1)).toMatchObject({ engine: "demo-engine-1", parserVersion: "pytest@1", rerun: true });
    // every flip links to lines that name the test
    for (const flip of matrix.flips) for (const side of [flip.before, flip.after]) expect(side.logLine).not.toBeNull();
    // named by its instance id, as GET /tasks/{id} takes a task, the same matrix
    expect(await taskEvidenceMatrix(database.prisma, EVIDENCE_DEMO_TASK, NOT_BLIND)).toEqual(matrix);
  });

  it("seeding twice adds nothing", async () => {
    await seedEvidenceDemo(database.prisma, () => {});
    expect(await database.prisma.task.count({ where: { instanceId: EVIDENCE_DEMO_TASK } })).toBe(1);
  });

  it("is absent to an annotator blind on the task, as its runs are", async () => {
    const task = await database.prisma.task.findUniqueOrThrow({ where: { instanceId: EVIDENCE_DEMO_TASK } });
    const blind = {
      ...blindSetOf(database.prisma, null),
      hides: async (id: string | null | undefined) => id === task.id,
    };
    await expect(taskEvidenceMatrix(database.prisma, task.id, blind)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
