import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask } from "../fixtures/factories/curation";
import { getTaskDetail } from "../../lib/curation/get-task-detail";
import { NOT_BLIND } from "../../lib/auth/blind";

// The task page's Recipe tab shows the eval script a run of the task executes: for an IMAGE
// (or SPEC) environment that is derived per task, not the revision's stored placeholder.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db.drop());

describe("the task page's eval script", () => {
  it("is derived per task for an environment whose source is an image", async () => {
    const env = await createEnvironment(db.prisma, "acme/imaged");
    await db.prisma.environment.update({ where: { id: env.id }, data: { imageSource: "IMAGE" } });
    const task = await createTask(db.prisma, env.id, { instanceId: "acme__imaged-1" });
    const detail = await getTaskDetail(db.prisma, task.id, NOT_BLIND);
    expect(detail.evalScript?.derived).toBe(true);
    expect(detail.evalScript?.script).toContain("Derived by SWE Curator for task acme__imaged-1");
    expect(detail.evalScript?.script).toContain("test_w.py");
    expect(detail.evalScript?.script).not.toBe(env.revision.evalScript);
  });

  it("is the revision's own for a recipe environment", async () => {
    const env = await createEnvironment(db.prisma, "acme/recipe");
    const task = await createTask(db.prisma, env.id);
    const detail = await getTaskDetail(db.prisma, task.id, NOT_BLIND);
    expect(detail.evalScript).toEqual({ script: env.revision.evalScript, derived: false });
  });
});
