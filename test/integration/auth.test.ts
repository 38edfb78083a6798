import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { ensureAdmin } from "../../lib/users/ensure-admin";
import { createApiToken, hashToken } from "../../lib/auth/api-tokens";
import { requireRole, resolveActor } from "../../lib/auth/actor";
import { verifyPassword } from "../../lib/auth/passwords";
import { updateUser } from "../../lib/users/manage-users";
import { revokeApiToken } from "../../lib/auth/manage-api-tokens";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  process.env.NEXTAUTH_SECRET = "auth-test-secret";
});
afterAll(async () => db.drop());

const bearer = (token: string) => new Headers({ authorization: `Bearer ${token}` });

describe("first start", () => {
  it("creates one admin with a generated password, storing only its hash, and never again", async () => {
    const first = await ensureAdmin(db.prisma, {});
    expect(first).toMatchObject({ created: true, email: "admin@swe-curator.local", generated: true });
    if (!first.created) throw new Error("unreachable");
    const admin = await db.prisma.user.findUniqueOrThrow({ where: { email: first.email } });
    expect(admin.role).toBe("ADMIN");
    expect(admin.passwordHash).not.toContain(first.password);
    expect(await verifyPassword(first.password, admin.passwordHash!)).toBe(true);
    expect(await ensureAdmin(db.prisma, {})).toEqual({ created: false });
    expect(await db.prisma.auditEvent.count({ where: { action: "bootstrap_admin" } })).toBe(1);
  });
});

describe("API tokens", () => {
  it("are stored hashed, identify their owner, and stop working once revoked", async () => {
    const curator = await db.prisma.user.create({ data: { email: "c@example.test", role: "CURATOR" } });
    const { token, id } = await createApiToken(db.prisma, curator.id, { name: "cli" });
    const stored = await db.prisma.apiToken.findUniqueOrThrow({ where: { id } });
    expect(stored.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    expect(await resolveActor(bearer(token))).toMatchObject({ email: "c@example.test", role: "CURATOR" });
    await revokeApiToken(db.prisma, { id: curator.id, email: curator.email, name: null, role: "CURATOR" }, id);
    expect(await resolveActor(bearer(token))).toBeNull();
    expect(await resolveActor(bearer("swc_not-a-real-token"))).toBeNull();
  });
});

describe("the role guard", () => {
  it("reads the role from the database per request, so a demotion takes effect at once", async () => {
    const user = await db.prisma.user.create({ data: { email: "promoted@example.test", role: "CURATOR" } });
    const cookie = `next-auth.session-token=${await encode({ token: { sub: user.id, sid: randomUUID() }, secret: "auth-test-secret" })}`;
    const headers = new Headers({ cookie });
    await expect(requireRole(headers, "CURATOR")).resolves.toMatchObject({ id: user.id });
    await db.prisma.user.update({ where: { id: user.id }, data: { role: "VIEWER" } });
    await expect(requireRole(headers, "CURATOR")).rejects.toMatchObject({ code: "FORBIDDEN" });
    await db.prisma.user.update({ where: { id: user.id }, data: { disabled: true } });
    await expect(requireRole(headers, "VIEWER")).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("rejects a cookie signed with another secret", async () => {
    const user = await db.prisma.user.create({ data: { email: "forged@example.test", role: "VIEWER" } });
    const forged = `next-auth.session-token=${await encode({ token: { sub: user.id, sid: randomUUID() }, secret: "someone-elses-secret" })}`;
    await expect(requireRole(new Headers({ cookie: forged }), "VIEWER")).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
  });

  it("will not let the last admin demote themselves", async () => {
    const admin = await db.prisma.user.findFirstOrThrow({ where: { role: "ADMIN" } });
    const actor = { id: admin.id, email: admin.email, name: null, role: "ADMIN" as const };
    await expect(updateUser(db.prisma, actor, admin.id, { role: "VIEWER" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: admin.id } })).role).toBe("ADMIN");
  });
});
