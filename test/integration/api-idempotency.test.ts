import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { callApi } from "../helpers/api-client";
import { createApiToken } from "../../lib/auth/api-tokens";

// A POST that creates, retried with the same Idempotency-Key, creates once and answers the same.

let db: TestDatabase;
let token: string;
let curatorId: string;
let tasks: { id: string; version: number }[];

beforeAll(async () => {
  db = await createTestDatabase();
  const curator = await db.prisma.user.create({ data: { email: "curator@idem.test", role: "CURATOR" } });
  curatorId = curator.id;
  token = (await createApiToken(db.prisma, curator.id, { name: "idem" })).token;
  const demo = Object.values(await loadDemoTasks(db.prisma));
  tasks = await db.prisma.task.findMany({
    where: { id: { in: demo.map((t) => t.id) } },
    select: { id: true, version: true },
    orderBy: { id: "asc" },
  });
});
afterAll(async () => db.drop());

const decide = (task: { id: string; version: number }, key?: string, comment = "retry me") =>
  callApi({ token }, "POST /decisions", {
    body: { taskId: task.id, verdict: "NEEDS_CHANGES", reasons: ["OTHER"], comment, version: task.version },
    headers: key ? { "idempotency-key": key } : {},
  });

const decisionsOf = (taskId: string) => db.prisma.curationDecision.count({ where: { taskId } });
const auditOf = (taskId: string) =>
  db.prisma.auditEvent.count({
    where: { entityType: "task", entityId: taskId, action: { startsWith: "task.decided" } },
  });

describe("Idempotency-Key", () => {
  it("a retried decision is recorded once, audited once, and answered the same", async () => {
    const task = tasks[0];
    const first = await decide(task, "retry-1");
    const again = await decide(task, "retry-1");
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await decisionsOf(task.id)).toBe(1);
    expect(await auditOf(task.id)).toBe(1);
  });

  it("without a key the same request is a second request (the stale version is refused)", async () => {
    const task = tasks[1];
    expect((await decide(task)).status).toBe(201);
    const second = await decide(task);
    expect(second.status).toBe(409);
    expect(await decisionsOf(task.id)).toBe(1);
  });

  it("the same key with a different body is refused, and nothing is written", async () => {
    const task = tasks[2];
    expect((await decide(task, "reuse")).status).toBe(201);
    const other = await decide(task, "reuse", "a different comment");
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatch(/already used for a different request/);
    expect(await decisionsOf(task.id)).toBe(1);
  });

  it("concurrent retries with one key create once", async () => {
    const task = tasks[3];
    const answers = await Promise.all(Array.from({ length: 5 }, () => decide(task, "burst")));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(await decisionsOf(task.id)).toBe(1);
    const replay = await decide(task, "burst");
    expect(replay.status).toBe(201);
  });

  it("a token made from the settings page is created once per key too (keys are per user)", async () => {
    const key = { "idempotency-key": "make-token" };
    const a = await callApi({ userId: curatorId }, "POST /tokens", {
      body: { name: "once", scopes: ["read"] },
      headers: key,
    });
    const b = await callApi({ userId: curatorId }, "POST /tokens", {
      body: { name: "once", scopes: ["read"] },
      headers: key,
    });
    expect(a.status).toBe(201);
    expect(b.body.id).toBe(a.body.id);
    expect(await db.prisma.apiToken.count({ where: { name: "once" } })).toBe(1);
  });

  it("refuses a malformed key, saying what a key must be", async () => {
    const bad = await decide(tasks[4] ?? tasks[0], "has space");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("Idempotency-Key");
  });
});
