import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { loadDemoTasks } from "../helpers/demo-environments";
import { callApi } from "../helpers/api-client";

// Tokens carry scopes and an expiry; a token never does more than its scopes or its owner's role.

let db: TestDatabase;
const users: Record<"viewer" | "curator" | "admin", string> = { viewer: "", curator: "", admin: "" };
let task: { id: string; version: number };

beforeAll(async () => {
  db = await createTestDatabase();
  for (const role of ["VIEWER", "CURATOR", "ADMIN"] as const) {
    users[role.toLowerCase() as keyof typeof users] = (
      await db.prisma.user.create({ data: { email: `${role}@tokens.test`, role } })
    ).id;
  }
  const demo = Object.values(await loadDemoTasks(db.prisma))[0];
  task = await db.prisma.task.findUniqueOrThrow({ where: { id: demo.id }, select: { id: true, version: true } });
});
afterAll(async () => db.drop());

const mint = async (userId: string, body: Record<string, unknown>) =>
  callApi({ userId }, "POST /tokens", { body: { name: "t", ...body } });

describe("API token scopes", () => {
  it("refuses a scope beyond the owner's role, naming the field", async () => {
    const refused = await mint(users.viewer, { scopes: ["read", "curate"] });
    expect(refused.status).toBe(422);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.body.errors[0].field).toBe("scopes");
    expect(refused.body.detail).toMatch(/VIEWER cannot hold a token with the scope "curate"/);
    expect(await db.prisma.apiToken.count({ where: { userId: users.viewer } })).toBe(0);
  });

  it("a read-only token of a curator reads but cannot decide; a curate token can", async () => {
    const read = (await mint(users.curator, { scopes: ["read"] })).body;
    expect(read.scopes).toEqual(["read"]);
    expect((await callApi({ token: read.token }, "GET /tasks")).status).toBe(200);
    const refused = await callApi({ token: read.token }, "POST /decisions", {
      body: { taskId: task.id, verdict: "APPROVED", version: task.version },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/lacks the "curate" scope/);
    expect(await db.prisma.curationDecision.count()).toBe(0);

    const curate = (await mint(users.curator, { scopes: ["read", "curate"] })).body;
    const decided = await callApi({ token: curate.token }, "POST /decisions", {
      body: { taskId: task.id, verdict: "NEEDS_CHANGES", reasons: ["OTHER"], comment: "x", version: task.version },
    });
    expect(decided.status).toBe(201);
  });

  it("an admin-scope token loses its power when its owner is demoted", async () => {
    const owner = (await db.prisma.user.create({ data: { email: "soon-viewer@tokens.test", role: "ADMIN" } })).id;
    const token = (await mint(owner, { scopes: ["read", "admin"] })).body.token;
    expect((await callApi({ token }, "GET /users")).status).toBe(200);
    await db.prisma.user.update({ where: { id: owner }, data: { role: "VIEWER" } });
    const after = await callApi({ token }, "GET /users");
    expect(after.status).toBe(403);
    expect(after.body.detail).toMatch(/owner is VIEWER/);
  });

  it("expires (90 days unless asked), records its last use, and stops at its expiry", async () => {
    const created = (await mint(users.viewer, {})).body;
    expect(created.scopes).toEqual(["read"]);
    const days = (new Date(created.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(90);
    expect(created.lastUsedAt).toBeNull();
    await callApi({ token: created.token }, "GET /me");
    await expect
      .poll(async () => (await db.prisma.apiToken.findUniqueOrThrow({ where: { id: created.id } })).lastUsedAt)
      .not.toBeNull();

    await db.prisma.apiToken.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await callApi({ token: created.token }, "GET /me");
    expect(expired.status).toBe(401);
    expect(expired.body.detail).toMatch(/unknown, revoked or expired/);
  });

  it("lists the caller's tokens a page at a time, newest first, without the secret", async () => {
    const owner = (await db.prisma.user.create({ data: { email: "pager@tokens.test", role: "VIEWER" } })).id;
    for (const name of ["a", "b", "c"]) await mint(owner, { name });
    const first = (await callApi({ userId: owner }, "GET /tokens", { query: "limit=2" })).body;
    expect(first.items.map((t: { name: string }) => t.name)).toEqual(["c", "b"]);
    expect(first.items[0]).not.toHaveProperty("token");
    const second = (await callApi({ userId: owner }, "GET /tokens", { query: `limit=2&cursor=${first.nextCursor}` }))
      .body;
    expect(second.items.map((t: { name: string }) => t.name)).toEqual(["a"]);
    expect(second.nextCursor).toBeNull();
  });
});
