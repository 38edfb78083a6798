import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { compareCandidates, CompareCandidatesQuerySchema } from "../../lib/trajectories/compare-candidates";
import { compareTrajectories } from "../../lib/trajectories/compare";
import { NOT_BLIND } from "../../lib/auth/blind";

// Issue 30: any two trajectories can be compared. The picker lists the trajectory's own
// task's others first, then finds the rest by task or model; comparing two tasks works and says so.

let db: TestDatabase;
const ids: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  const repository = await db.prisma.repository.create({ data: { owner: "o", name: "r" } });
  const environment = await db.prisma.environment.create({
    data: { key: "o/r@abc", repositoryId: repository.id, baseCommit: "abc" },
  });
  const task = (instanceId: string) =>
    db.prisma.task.create({
      data: { instanceId, environmentId: environment.id, problemStatement: "p", fixPatch: "", testPatch: "" },
    });
  const [flask, django] = [await task("pallets__flask-1"), await task("django__django-2")];
  const solver = async (externalId: string, taskId: string, model: string, actions: string[]) => {
    const t = await db.prisma.trajectory.create({
      data: { externalId, taskId, role: "SOLVER", format: "OTHER", model, stepCount: actions.length },
    });
    await db.prisma.trajectoryStep.createMany({
      data: actions.map((action, index) => ({ trajectoryId: t.id, index, action, kind: "RUN" as const })),
    });
    ids[externalId] = t.id;
  };
  await solver("flask-gpt", flask.id, "gpt-4o", ["ls", "cat app.py", "submit"]);
  await solver("flask-claude", flask.id, "claude-3", ["ls", "submit"]);
  await solver("django-gpt", django.id, "gpt-4o", ["ls", "cat models.py", "submit"]);
  await solver("django-llama", django.id, "llama-3", ["pytest"]);
});
afterAll(async () => db.drop());

const query = (q: Record<string, string>) => CompareCandidatesQuerySchema.parse(q);

describe("comparing any two trajectories", () => {
  it("offers the same task's trajectories first, then every other, searchable by task and model", async () => {
    const all = await compareCandidates(db.prisma, query({ near: ids["flask-gpt"] }), NOT_BLIND);
    expect(all.sameTask.map((c) => c.externalId)).toEqual(["flask-claude"]);
    expect(all.others.map((c) => c.externalId).sort()).toEqual(["django-gpt", "django-llama"]);
    expect(all.others[0]).toMatchObject({
      instanceId: expect.stringMatching(/^django__django-2$/),
      stepCount: expect.any(Number),
    });

    const byTask = await compareCandidates(db.prisma, query({ near: ids["flask-gpt"], q: "django" }), NOT_BLIND);
    expect(byTask.sameTask).toEqual([]);
    expect(byTask.others.map((c) => c.externalId).sort()).toEqual(["django-gpt", "django-llama"]);
    const byModel = await compareCandidates(db.prisma, query({ near: ids["flask-gpt"], q: "LLAMA" }), NOT_BLIND);
    expect(byModel.others.map((c) => c.externalId)).toEqual(["django-llama"]);
    // words narrow together: a task and a model
    const both = await compareCandidates(db.prisma, query({ q: "django gpt" }), NOT_BLIND);
    expect(both.others.map((c) => c.externalId)).toEqual(["django-gpt"]);
  });

  it("compares trajectories of two different tasks and says they are", async () => {
    const across = await compareTrajectories(db.prisma, ids["flask-gpt"], ids["django-gpt"], NOT_BLIND);
    expect(across.sameTask).toBe(false);
    expect([across.a.task?.instanceId, across.b.task?.instanceId]).toEqual(["pallets__flask-1", "django__django-2"]);
    expect(across.matched).toBe(2); // ls and submit line up; the two cat steps differ
    const within = await compareTrajectories(db.prisma, ids["flask-gpt"], ids["flask-claude"], NOT_BLIND);
    expect(within.sameTask).toBe(true);
  });
});
