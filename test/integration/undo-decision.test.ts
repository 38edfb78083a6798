import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createEnvironment, createTask, createUser } from "../fixtures/factories/curation";
import { recordDecision } from "../../lib/curation/record-decision";
import { undoDecision } from "../../lib/curation/undo-decision";
import { UNDO_WINDOW_MS } from "../../lib/curation/decision-rules";

// A misclicked decision is taken back: the task's status is what the other decisions make it,
// and the audit trail says which decision was undone, by whom.

let db: TestDatabase;
let envId: string;
beforeAll(async () => {
  db = await createTestDatabase();
  envId = (await createEnvironment(db.prisma, "acme/undo")).id;
});
afterAll(async () => db.drop());

const taskNow = (id: string) =>
  db.prisma.task.findUniqueOrThrow({ where: { id }, select: { curationStatus: true, version: true } });

describe("undoing a decision", () => {
  it("reverts the task's status, removes the decision and records an undo entry holding it", async () => {
    const curator = await createUser(db.prisma, "CURATOR");
    const task = await createTask(db.prisma, envId, { automatedVerdict: "VALID" });
    const before = await taskNow(task.id);
    const { decision } = await recordDecision(db.prisma, curator, task.id, {
      verdict: "REJECT",
      reasons: ["TRIVIAL"],
      justification: "the tests pass but check nothing",
      version: task.version,
    });
    expect((await taskNow(task.id)).curationStatus).toBe("REJECTED");

    const result = await undoDecision(db.prisma, curator, decision.id);
    const after = await taskNow(task.id);
    expect(after.curationStatus).toBe(before.curationStatus);
    expect(result).toMatchObject({ curationStatus: before.curationStatus, version: after.version });
    expect(await db.prisma.curationDecision.count({ where: { taskId: task.id } })).toBe(0);
    const entry = await db.prisma.auditEvent.findFirstOrThrow({
      where: { entityId: task.id, action: "task.decision_undone" },
    });
    expect(entry.actorId).toBe(curator.id);
    expect(entry.before).toMatchObject({ verdict: "REJECT", reasons: ["TRIVIAL"], curationStatus: "REJECTED" });
    expect((entry.after as { reverted: string }).reverted).toMatch(/^the reject decision of /);
  });

  it("keeps the other curators' decisions: the status is recomputed from them", async () => {
    const [first, second] = [await createUser(db.prisma, "CURATOR"), await createUser(db.prisma, "CURATOR")];
    const task = await createTask(db.prisma, envId, { automatedVerdict: "VALID" });
    await recordDecision(db.prisma, first, task.id, { verdict: "APPROVE", version: task.version });
    const mine = await recordDecision(db.prisma, second, task.id, {
      verdict: "REJECT",
      reasons: ["TRIVIAL"],
      justification: "the tests pass but check nothing",
      version: (await taskNow(task.id)).version,
    });
    await undoDecision(db.prisma, second, mine.decision.id);
    const left = await db.prisma.curationDecision.findMany({ where: { taskId: task.id } });
    expect(left.map((d) => [d.curatorId, d.verdict])).toEqual([[first.id, "APPROVE"]]);
    expect((await taskNow(task.id)).curationStatus).not.toBe("REJECTED");
  });

  it("refuses another curator's decision, a decision superseded by a later one of yours, and one past the window, saying why", async () => {
    const [owner, other] = [await createUser(db.prisma, "CURATOR"), await createUser(db.prisma, "CURATOR")];
    const task = await createTask(db.prisma, envId, { automatedVerdict: "VALID" });
    const firstDecision = await recordDecision(db.prisma, owner, task.id, {
      verdict: "APPROVE",
      version: task.version,
    });
    await expect(undoDecision(db.prisma, other, firstDecision.decision.id)).rejects.toThrow(
      "Only the curator who made a decision can undo it",
    );
    const later = new Date(firstDecision.decision.createdAt.getTime() + UNDO_WINDOW_MS + 1000);
    await expect(undoDecision(db.prisma, owner, firstDecision.decision.id, later)).rejects.toThrow(
      /can be undone for 15 minutes/,
    );
    await recordDecision(db.prisma, owner, task.id, {
      verdict: "REJECT",
      reasons: ["TRIVIAL"],
      justification: "the tests pass but check nothing",
      version: (await taskNow(task.id)).version,
    });
    await expect(undoDecision(db.prisma, owner, firstDecision.decision.id)).rejects.toThrow(
      /only your latest decision can be undone/,
    );
    expect(await db.prisma.auditEvent.count({ where: { entityId: task.id, action: "task.decision_undone" } })).toBe(0);
  });
});
