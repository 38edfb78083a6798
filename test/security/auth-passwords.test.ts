import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { encode } from "next-auth/jwt";
import bcrypt from "bcryptjs";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { POST as changePassword } from "../../app/api/v1/me/password/route";
import { POST as resetPassword } from "../../app/api/v1/users/[id]/password/route";
import { GET as me } from "../../app/api/v1/me/route";
import { authorizeWithPassword } from "../../lib/auth/password-sign-in";
import { hashPassword } from "../../lib/auth/passwords";
import { recordSignInFailure, signInLockedUntil, SIGN_IN_LIMITS } from "../../lib/auth/sign-in-throttle";

// Issue 10, item 6: password change ends the other sessions, an admin can reset, a
// minimum policy holds, an unknown e-mail costs the same work as a known one, and the
// failure counts live in Postgres.

const APP = "http://localhost:3000";
const OLD = "old-password-horse-battery";
const NEW = "new-password-staple-correct";
let db: TestDatabase;

const cookieFor = async (userId: string, sv?: number) =>
  `next-auth.session-token=${await encode({ token: { sub: userId, sid: randomUUID(), ...(sv === undefined ? {} : { sv }) }, secret: process.env.NEXTAUTH_SECRET! })}`;
const json = (path: string, cookie: string, body: unknown) =>
  new Request(APP + path, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", origin: APP, host: "localhost:3000", cookie },
  });
const whoAmI = async (cookie: string) => (await me(new Request(APP + "/api/v1/me", { headers: { cookie } }))).status;
const params = (id: string) => ({ params: Promise.resolve({ id }) });

beforeAll(async () => {
  db = await createTestDatabase();
  process.env.NEXTAUTH_SECRET = "passwords-test-secret";
  process.env.NEXTAUTH_URL = APP;
});
afterAll(async () => db.drop());

describe("changing your password", () => {
  it("ends every other session, keeps this one, and the new password signs in", async () => {
    const user = await db.prisma.user.create({
      data: { email: "changer@example.test", role: "CURATOR", passwordHash: await hashPassword(OLD) },
    });
    const laptop = await cookieFor(user.id);
    const stolen = await cookieFor(user.id);
    expect(await whoAmI(stolen)).toBe(200);

    const response = await changePassword(
      json("/api/v1/me/password", laptop, { currentPassword: OLD, newPassword: NEW }),
    );
    expect(response.status).toBe(200);
    const fresh = response.headers.get("set-cookie")!.split(";")[0];
    expect(fresh).toMatch(/^next-auth\.session-token=/);
    expect(response.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Lax/);

    expect(await whoAmI(stolen)).toBe(401);
    expect(await whoAmI(laptop)).toBe(401);
    expect(await whoAmI(fresh)).toBe(200);
    expect(await authorizeWithPassword({ email: "changer@example.test", password: OLD })).toBeNull();
    expect(await authorizeWithPassword({ email: "changer@example.test", password: NEW })).toMatchObject({
      id: user.id,
      sessionVersion: 1,
    });
  });

  it("refuses a wrong current password and a weak new one, with a sentence saying what to do", async () => {
    const user = await db.prisma.user.create({
      data: { email: "weak@example.test", role: "VIEWER", passwordHash: await hashPassword(OLD) },
    });
    const cookie = await cookieFor(user.id);
    const wrong = await changePassword(
      json("/api/v1/me/password", cookie, { currentPassword: "not-it", newPassword: NEW }),
    );
    expect(wrong.status).toBe(403);
    expect((await wrong.json()).detail).toContain("current password");
    const short = await changePassword(
      json("/api/v1/me/password", cookie, { currentPassword: OLD, newPassword: "hunter2" }),
    );
    expect(short.status).toBe(400);
    expect((await short.json()).detail).toContain("at least 12 characters");
    const repeated = await changePassword(
      json("/api/v1/me/password", cookie, { currentPassword: OLD, newPassword: "aaaaaaaaaaaaaaaa" }),
    );
    expect(repeated.status).toBe(400);
    expect(await authorizeWithPassword({ email: "weak@example.test", password: OLD })).not.toBeNull();
  });
});

describe("an admin resetting a password", () => {
  it("generates one shown once, ends the user's sessions and lifts a sign-in lock; a curator may not", async () => {
    const admin = await db.prisma.user.create({ data: { email: "root@example.test", role: "ADMIN" } });
    const curator = await db.prisma.user.create({
      data: { email: "locked@example.test", role: "CURATOR", passwordHash: await hashPassword(OLD) },
    });
    const curatorSession = await cookieFor(curator.id);
    for (let i = 0; i < SIGN_IN_LIMITS.account.maxFailures; i++)
      await recordSignInFailure(db.prisma, { account: curator.email, address: null });
    expect(await signInLockedUntil(db.prisma, { account: curator.email, address: null })).not.toBeNull();

    const byCurator = await resetPassword(
      json(`/api/v1/users/${admin.id}/password`, curatorSession, {}),
      params(admin.id),
    );
    expect(byCurator.status).toBe(403);

    const response = await resetPassword(
      json(`/api/v1/users/${curator.id}/password`, await cookieFor(admin.id), {}),
      params(curator.id),
    );
    expect(response.status).toBe(200);
    const { password, generated } = await response.json();
    expect(generated).toBe(true);
    expect(await whoAmI(curatorSession)).toBe(401);
    expect(await signInLockedUntil(db.prisma, { account: curator.email, address: null })).toBeNull();
    expect(await authorizeWithPassword({ email: curator.email, password })).toMatchObject({ id: curator.id });
    expect(await db.prisma.auditEvent.count({ where: { action: "reset_password", entityId: curator.id } })).toBe(1);
  });
});

describe("account enumeration", () => {
  it("an unknown e-mail, a disabled account and an SSO-only account cost the same bcrypt work as a wrong password", async () => {
    await db.prisma.user.create({ data: { email: "known@example.test", passwordHash: await hashPassword(OLD) } });
    await db.prisma.user.create({
      data: { email: "gone@example.test", passwordHash: await hashPassword(OLD), disabled: true },
    });
    await db.prisma.user.create({ data: { email: "sso@example.test" } });
    const compare = vi.spyOn(bcrypt, "compare");
    for (const email of ["known@example.test", "nobody@example.test", "gone@example.test", "sso@example.test"]) {
      compare.mockClear();
      expect(await authorizeWithPassword({ email, password: "wrong-password-guess" })).toBeNull();
      expect(compare, email).toHaveBeenCalledTimes(1);
      // the stand-in hash has the same cost as a real one
      expect(String(compare.mock.calls[0][1]).slice(0, 7), email).toBe("$2b$10$");
    }
    compare.mockRestore();
  });
});
