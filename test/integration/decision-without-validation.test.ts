import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import { recordDecision } from "../../lib/curation/record-decision";

// A decision on a task no validation has judged is kept apart in the audit log, with
// whether the curator confirmed deciding without that evidence (the task page asks).

let db: TestDatabase;
let envId: string;
beforeAll(async () => {
  db = await createTestDatabase();
  envId = (await createEnvironment(db.prisma, "acme/unjudged")).id;
});
afterAll(async () => db.drop());

const decidedEntry = (taskId: string) =>
  db.prisma.auditEvent.findFirstOrThrow({ where: { entityId: taskId, action: { startsWith: "task.decided" } } });

describe("deciding before any validation", () => {
  it("records the decision as made without validation, and the confirmation the curator gave", async () => {
    const curator = await createUser(db.prisma, "CURATOR");
    const task = await createTask(db.prisma, envId);
    await recordDecision(db.prisma, curator, task.id, {
      verdict: "APPROVE",
      confirmedWithoutValidation: true,
      version: task.version,
    });
    expect((await decidedEntry(task.id)).after).toMatchObject({
      verdict: "APPROVE",
      withoutValidation: true,
      confirmedWithoutValidation: true,
    });
  });

  it("records an unconfirmed one (an API client that did not ask) as unconfirmed", async () => {
    const curator = await createUser(db.prisma, "CURATOR");
    const task = await createTask(db.prisma, envId);
    await recordDecision(db.prisma, curator, task.id, {
      verdict: "REJECT",
      reasons: ["TRIVIAL"],
      version: task.version,
    });
    expect((await decidedEntry(task.id)).after).toMatchObject({
      withoutValidation: true,
      confirmedWithoutValidation: false,
    });
  });

  it("says nothing of it once validation has judged the task", async () => {
    const curator = await createUser(db.prisma, "CURATOR");
    const task = await createTask(db.prisma, envId, { automatedVerdict: "VALID" });
    await recordDecision(db.prisma, curator, task.id, { verdict: "APPROVE", version: task.version });
    const after = (await decidedEntry(task.id)).after as Record<string, unknown>;
    expect(after).not.toHaveProperty("withoutValidation");
  });
});
