import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Provider from "oidc-provider";
import { createRequire } from "node:module";
import path from "node:path";
import { decode } from "next-auth/jwt";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { authOptions } from "../../lib/auth/auth-options";
import { hashPassword } from "../../lib/auth/passwords";
import { createOidcLinkIntent } from "../../lib/auth/oidc-sign-in";

// Issue 10, item 4: whoever controls an identity-provider account that claims the admin's
// e-mail must not become the admin. A real OpenID provider (oidc-provider) runs on
// loopback; the test plays the browser through next-auth's real handler and our callbacks.

// next-auth's framework-free handler (the one its Next route handler calls); not in its exports map
type AuthResponse = { status?: number; redirect?: string; body?: unknown; cookies?: { name: string; value: string }[] };
const { AuthHandler } = createRequire(import.meta.url)(
  path.resolve(import.meta.dirname, "../../node_modules/next-auth/core/index.js"),
) as {
  AuthHandler: (params: { req: Record<string, unknown>; options: unknown }) => Promise<AuthResponse>;
};

const APP = "http://localhost:3000";
const SECRET = "oidc-test-secret";
type Claims = { email: string; email_verified: boolean; name?: string };

let db: TestDatabase;
let server: Server;
const identities = new Map<string, Claims>();

beforeAll(async () => {
  db = await createTestDatabase();
  Object.assign(process.env, {
    NEXTAUTH_SECRET: SECRET,
    NEXTAUTH_URL: APP,
    OIDC_CLIENT_ID: "swe-curator",
    OIDC_CLIENT_SECRET: "client-secret",
    OIDC_ALLOWED_DOMAINS: "corp.example",
  });
  const provider = await startProvider();
  server = provider.server;
  process.env.OIDC_ISSUER = provider.issuer;
});
afterAll(async () => {
  server?.close();
  await db.drop();
});

async function startProvider() {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  const oidc = new Provider(issuer, {
    clients: [
      { client_id: "swe-curator", client_secret: "client-secret", redirect_uris: [`${APP}/api/auth/callback/oidc`] },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // put the scope's claims into the ID token, where next-auth reads the profile
    conformIdTokenClaims: false,
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, ...identities.get(sub) }) }),
  });
  srv.on("request", oidc.callback());
  return { issuer, server: srv };
}

/** A tiny cookie jar for the provider's interaction cookies. */
function jar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    take(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const i = pair.indexOf("=");
        cookies.set(pair.slice(0, i), pair.slice(i + 1));
      }
    },
  };
}

type NextAuthCookies = Record<string, string>;
const keep = (into: NextAuthCookies, out?: { name: string; value: string }[]) =>
  out?.forEach((c) => (into[c.name] = c.value));

/** Signs in at the provider as `sub` (its dev login and consent pages) and returns the callback query. */
async function authorizeAtProvider(authorizationUrl: string, sub: string): Promise<Record<string, string>> {
  const cookies = jar();
  let url = authorizationUrl;
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(`${APP}/api/auth/callback/oidc`)) return Object.fromEntries(new URL(url).searchParams);
    let response = await fetch(url, { redirect: "manual", headers: { cookie: cookies.header() } });
    cookies.take(response);
    if (response.status === 200 && url.includes("/interaction/")) {
      const page = await response.text();
      const form: Record<string, string> = page.includes('name="login"')
        ? { prompt: "login", login: sub, password: "any" }
        : { prompt: "consent" };
      response = await fetch(url, {
        method: "POST",
        redirect: "manual",
        body: new URLSearchParams(form),
        headers: { cookie: cookies.header() },
      });
      cookies.take(response);
    }
    const location = response.headers.get("location");
    if (!location) throw new Error(`the provider answered ${response.status} at ${url}: ${await response.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error("the provider never redirected back");
}

/** The whole OIDC sign-in as a browser does it; the session's user id, or where it was sent instead. */
async function signInWithOidc(
  sub: string,
  linkToken: string | null = null,
): Promise<{ userId: string | null; redirect: string }> {
  const options = authOptions({ oidcLinkToken: linkToken });
  const cookies: NextAuthCookies = {};
  const base = { headers: { host: "localhost:3000" }, query: {}, body: {} };
  const csrf = await AuthHandler({ req: { ...base, action: "csrf", method: "GET", cookies }, options });
  keep(cookies, csrf.cookies);
  const csrfToken = (csrf.body as { csrfToken: string }).csrfToken;
  const start = await AuthHandler({
    req: {
      ...base,
      action: "signin",
      providerId: "oidc",
      method: "POST",
      cookies,
      body: { csrfToken, callbackUrl: `${APP}/tasks` },
    },
    options,
  });
  keep(cookies, start.cookies);
  const query = await authorizeAtProvider(start.redirect!, sub);
  const done = await AuthHandler({
    req: { ...base, action: "callback", providerId: "oidc", method: "GET", cookies, query },
    options,
  });
  keep(cookies, done.cookies);
  const session = cookies["next-auth.session-token"];
  const token = session ? await decode({ token: session, secret: SECRET }) : null;
  return { userId: token?.sub ?? null, redirect: done.redirect ?? "" };
}

describe("signing in with OpenID Connect", () => {
  let adminId: string;
  beforeAll(async () => {
    adminId = (
      await db.prisma.user.create({
        data: { email: "admin@corp.example", role: "ADMIN", passwordHash: await hashPassword("admin-password-long") },
      })
    ).id;
  });

  it("an identity claiming the admin's e-mail unverified is refused, and nothing is linked", async () => {
    identities.set("attacker-1", { email: "admin@corp.example", email_verified: false });
    const result = await signInWithOidc("attacker-1");
    expect(result.userId).toBeNull();
    expect(result.redirect).toContain("error=OidcEmailUnverified");
    expect(await db.prisma.account.count()).toBe(0);
  });

  it("a verified identity with the admin's e-mail is still not linked to the password account without the owner", async () => {
    identities.set("attacker-2", { email: "Admin@corp.example", email_verified: true });
    const result = await signInWithOidc("attacker-2");
    expect(result.userId).toBeNull();
    expect(result.redirect).toContain("error=OidcLinkRequired");
    expect(await db.prisma.account.count()).toBe(0);
  });

  it("a verified e-mail outside OIDC_ALLOWED_DOMAINS is refused", async () => {
    identities.set("outsider", { email: "someone@elsewhere.example", email_verified: true });
    const result = await signInWithOidc("outsider");
    expect(result).toMatchObject({ userId: null });
    expect(result.redirect).toContain("error=OidcDomainNotAllowed");
    expect(await db.prisma.user.count({ where: { email: "someone@elsewhere.example" } })).toBe(0);
  });

  it("a new verified colleague arrives as a VIEWER, even when the provider's subject equals the admin's id", async () => {
    identities.set(adminId, { email: "new.colleague@corp.example", email_verified: true, name: "New Colleague" });
    const result = await signInWithOidc(adminId);
    const user = await db.prisma.user.findUniqueOrThrow({ where: { email: "new.colleague@corp.example" } });
    expect(result.userId).toBe(user.id);
    expect(result.userId).not.toBe(adminId);
    expect(user.role).toBe("VIEWER");
  });

  it("links to the password account once its owner, signed in, asked for it from this browser", async () => {
    identities.set("admin-sso", { email: "admin@corp.example", email_verified: true });
    const someoneElse = await createOidcLinkIntent(
      db.prisma,
      (await db.prisma.user.findUniqueOrThrow({ where: { email: "new.colleague@corp.example" } })).id,
    );
    expect((await signInWithOidc("admin-sso", someoneElse.token)).userId).toBeNull();

    const consent = await createOidcLinkIntent(db.prisma, adminId);
    expect((await signInWithOidc("admin-sso", consent.token)).userId).toBe(adminId);
    // linked now: later sign-ins need no consent, and the consent was used up
    expect((await signInWithOidc("admin-sso")).userId).toBe(adminId);
    expect(await db.prisma.oidcLinkIntent.count({ where: { userId: adminId } })).toBe(0);
    expect(await db.prisma.auditEvent.count({ where: { action: "link_oidc_confirmed", entityId: adminId } })).toBe(1);
  });
});
