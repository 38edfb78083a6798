import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthOptions } from "next-auth";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { POST as changePassword } from "@/app/api/v1/me/password/route";
import { POST as resetPassword } from "@/app/api/v1/users/[id]/password/route";
import { GET as me } from "@/app/api/v1/me/route";
import { authOptions } from "@/lib/auth/auth-options";
import { createApiToken } from "@/lib/auth/api-tokens";
import { hashPassword } from "@/lib/auth/passwords";
import { throttledPasswordSignIn } from "@/lib/auth/password-sign-in";
import { SIGN_IN_LIMITS } from "@/lib/auth/sign-in-throttle";
import { pageActorOf, pageRequestActor } from "@/lib/auth/session";

// Issue 27, item 4: sessions and tokens that did not end. Sign-out only dropped the cookie (a
// copy kept working); an API token outlived its owner's password change; pages accepted a
// Bearer token and ignored its scopes; the sign-in throttle took X-Forwarded-For from anyone.
// Sign-in and sign-out go through next-auth's real core with our options, as the route does.

// next-auth's core and its own conversion of the core's answer to a Response, as its App Router
// handler uses them (the package does not export these paths, so they are loaded by file)
const nextAuthDir = path.resolve(import.meta.dirname, "../../node_modules/next-auth");
type InternalRequest = {
  method: string;
  action: string;
  providerId?: string;
  body?: Record<string, string>;
  cookies: Record<string, string>;
  headers: Record<string, string>;
  query: Record<string, string>;
};
type InternalResponse = { status?: number; redirect?: string };
const load = createRequire(import.meta.url);
const { AuthHandler } = load(path.join(nextAuthDir, "core/index.js")) as {
  AuthHandler: (params: { req: InternalRequest; options: AuthOptions }) => Promise<InternalResponse>;
};
const { toResponse } = load(path.join(nextAuthDir, "next/utils.js")) as {
  toResponse: (internal: InternalResponse) => Response;
};

const APP = "http://localhost:3000";
const PASSWORD = "a-long-enough-password-1";
const NEW_PASSWORD = "another-long-password-22";
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  process.env.NEXTAUTH_SECRET = "sessions-end-test-secret";
  process.env.NEXTAUTH_URL = APP;
});
afterAll(async () => db?.drop());

type Jar = Map<string, string>;
const cookieHeader = (jar: Jar) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
const sessionCookieOf = (jar: Jar) => `next-auth.session-token=${jar.get("next-auth.session-token")}`;

/** app/api/auth/[...nextauth]/route.ts without next/headers: next-auth's core with our options, answered as its App Router handler answers. */
async function nextAuthRoute(request: Request): Promise<Response> {
  const [action, providerId] = new URL(request.url).pathname.replace("/api/auth/", "").split("/");
  const body = request.method === "POST" ? Object.fromEntries(await request.clone().formData()) : undefined;
  // as next/headers' cookies() hands them over: decoded
  const cookies = Object.fromEntries(
    (request.headers.get("cookie") ?? "")
      .split("; ")
      .filter(Boolean)
      .map((pair) => pair.split(/=(.*)/s).slice(0, 2).map(decodeURIComponent)),
  );
  const internal = await AuthHandler({
    req: {
      method: request.method,
      action,
      providerId,
      body: body as Record<string, string> | undefined,
      cookies,
      headers: Object.fromEntries(request.headers),
      query: {},
    },
    options: authOptions(),
  });
  const response = toResponse(internal);
  if (body?.json === "true" && response.headers.get("location"))
    return new Response(JSON.stringify({ url: response.headers.get("location") }), {
      status: internal.status ?? 200,
      headers: response.headers,
    });
  return response;
}

function remember(jar: Jar, response: Response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const [name, value] = pair.split(/=(.*)/s);
    if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}

/** A browser's password sign-in: fetch the CSRF token, post the form (through the throttle, from `forwardedFor` when given). */
async function signIn(email: string, password: string, forwardedFor?: string) {
  const jar: Jar = new Map();
  const csrf = await nextAuthRoute(new Request(`${APP}/api/auth/csrf`));
  remember(jar, csrf);
  const { csrfToken } = await csrf.json();
  const form = new URLSearchParams({ email, password, csrfToken, json: "true", callbackUrl: `${APP}/tasks` });
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    cookie: cookieHeader(jar),
    host: "localhost:3000",
  };
  if (forwardedFor) headers["x-forwarded-for"] = forwardedFor;
  const request = new Request(`${APP}/api/auth/callback/credentials`, { method: "POST", headers, body: form });
  const response = await throttledPasswordSignIn(request, () => nextAuthRoute(request));
  remember(jar, response);
  return { status: response.status, jar, csrfToken };
}

const whoAmI = async (headers: Record<string, string>) =>
  (await me(new Request(`${APP}/api/v1/me`, { headers }))).status;
const postJson = (path: string, cookie: string, body: unknown) =>
  new Request(APP + path, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", origin: APP, host: "localhost:3000", cookie },
  });

async function passwordUser(email: string, role: "ADMIN" | "CURATOR" | "VIEWER" = "CURATOR") {
  return db.prisma.user.create({ data: { email, role, passwordHash: await hashPassword(PASSWORD) } });
}

describe("signing out", () => {
  it("ends the session on the server: a copy of the cookie taken before stops working", async () => {
    await passwordUser("leaver@example.test");
    const { status, jar, csrfToken } = await signIn("leaver@example.test", PASSWORD);
    expect(status).toBe(200);
    const copied = sessionCookieOf(jar);
    expect(await whoAmI({ cookie: copied })).toBe(200);

    const signOut = await nextAuthRoute(
      new Request(`${APP}/api/auth/signout`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(jar) },
        body: new URLSearchParams({ csrfToken, json: "true" }),
      }),
    );
    remember(jar, signOut);
    expect(jar.has("next-auth.session-token")).toBe(false);
    expect(await whoAmI({ cookie: copied })).toBe(401);

    // signing in again is a new session, untouched by the ended one
    const again = await signIn("leaver@example.test", PASSWORD);
    expect(await whoAmI({ cookie: sessionCookieOf(again.jar) })).toBe(200);
  });
});

describe("a password change", () => {
  it("ends the other sessions and, unless told not to, revokes the user's API tokens", async () => {
    const user = await passwordUser("changer@example.test");
    const laptop = await signIn(user.email, PASSWORD);
    const phone = await signIn(user.email, PASSWORD);
    const { token } = await createApiToken(db.prisma, user.id, { name: "ci" });
    expect(await whoAmI({ authorization: `Bearer ${token}` })).toBe(200);

    const changed = await changePassword(
      postJson("/api/v1/me/password", sessionCookieOf(laptop.jar), {
        currentPassword: PASSWORD,
        newPassword: NEW_PASSWORD,
      }),
    );
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ changed: true, otherSessionsEnded: true, apiTokensRevoked: 1 });
    expect(await whoAmI({ cookie: sessionCookieOf(phone.jar) })).toBe(401);
    expect(await whoAmI({ authorization: `Bearer ${token}` })).toBe(401);
    const fresh = changed.headers.get("set-cookie")!.split(";")[0];
    expect(await whoAmI({ cookie: fresh })).toBe(200);

    // the changer may keep their tokens, saying so
    const { token: kept } = await createApiToken(db.prisma, user.id, { name: "kept" });
    const keeping = await changePassword(
      postJson("/api/v1/me/password", fresh, {
        currentPassword: NEW_PASSWORD,
        newPassword: PASSWORD,
        revokeApiTokens: false,
      }),
    );
    expect(await keeping.json()).toMatchObject({ apiTokensRevoked: 0 });
    expect(await whoAmI({ authorization: `Bearer ${kept}` })).toBe(200);
  });

  it("an admin's reset revokes the user's tokens too", async () => {
    const admin = await passwordUser("reset-admin@example.test", "ADMIN");
    const user = await passwordUser("reset-me@example.test");
    const { token } = await createApiToken(db.prisma, user.id, { name: "ci" });
    const adminSession = await signIn(admin.email, PASSWORD);
    const reset = await resetPassword(
      postJson(`/api/v1/users/${user.id}/password`, sessionCookieOf(adminSession.jar), {}),
      { params: Promise.resolve({ id: user.id }) },
    );
    expect(await reset.json()).toMatchObject({ generated: true, apiTokensRevoked: 1 });
    expect(await whoAmI({ authorization: `Bearer ${token}` })).toBe(401);
  });
});

describe("pages and API tokens", () => {
  it("a page does not take an admin's read-only token as the admin: it sends the caller to sign in", async () => {
    const admin = await passwordUser("page-admin@example.test", "ADMIN");
    const { token } = await createApiToken(db.prisma, admin.id, { name: "read only", scopes: ["read"] });
    // the API honours the token's scope …
    expect(await whoAmI({ authorization: `Bearer ${token}` })).toBe(200);
    // … a page cannot, so it does not read tokens: the admin page redirects instead of rendering for the admin
    const pageCaller = await pageRequestActor(new Headers({ authorization: `Bearer ${token}` }));
    expect(pageCaller).toBeNull();
    expect(() => pageActorOf(pageCaller, "users:manage")).toThrow(
      expect.objectContaining({ digest: expect.stringContaining("/signin") }),
    );
    // the same admin with a session cookie gets the page
    const session = await signIn(admin.email, PASSWORD);
    const withCookie = await pageRequestActor(
      new Headers({ cookie: sessionCookieOf(session.jar), authorization: `Bearer ${token}` }),
    );
    expect(pageActorOf(withCookie, "users:manage")).toMatchObject({ id: admin.id, role: "ADMIN" });
  });
});

describe("the sign-in throttle and X-Forwarded-For", () => {
  it("without TRUST_PROXY, a forged address cannot lock a victim's address out", async () => {
    delete process.env.TRUST_PROXY;
    const victim = await passwordUser("office-victim@example.test");
    const office = "198.51.100.7";
    for (let i = 0; i <= SIGN_IN_LIMITS.address.maxFailures; i++)
      await signIn(`sprayed-${i}@example.test`, "Winter2026!", office);
    // the header was not believed: the victim, from that address, still signs in
    expect((await signIn(victim.email, PASSWORD, office)).status).toBe(200);
    expect(await db.prisma.signInThrottle.count({ where: { key: { startsWith: "address:" } } })).toBe(0);
  });

  it("behind a proxy (TRUST_PROXY=1), the address the proxy appended is limited, whatever the client prepended", async () => {
    process.env.TRUST_PROXY = "1";
    try {
      const user = await passwordUser("behind-proxy@example.test");
      const statuses: number[] = [];
      for (let i = 0; i <= SIGN_IN_LIMITS.address.maxFailures; i++)
        statuses.push((await signIn(`spray-${i}@example.test`, "Winter2026!", `10.9.${i}.1, 203.0.113.50`)).status);
      expect(statuses.at(-1)).toBe(429);
      expect((await signIn(user.email, PASSWORD, "10.0.0.1, 203.0.113.50")).status).toBe(429);
      expect((await signIn(user.email, PASSWORD, "203.0.113.51")).status).toBe(200);
    } finally {
      delete process.env.TRUST_PROXY;
    }
  });
});
