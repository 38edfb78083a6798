import { decode } from "next-auth/jwt";
import { prisma } from "../db/client";
import { AppError } from "../errors/app-error";
import { roleAtLeast, type RoleName } from "./permissions";
import { userForApiToken } from "./api-tokens";
import { authSecret } from "./secret";
import { readCookie, SESSION_COOKIE_NAMES } from "./cookies";
import { userOfSession, type CookieClaims } from "./session-end";

export type Actor = { id: string; email: string; name: string | null; role: RoleName };

type CookieSession = CookieClaims & { expiresAt: number };

// Decoding a session cookie derives its key (HKDF) and decrypts it: the largest cost of a page
// request's sign-in check under load (CPU profile of npm run bench:load). A decoded cookie is
// remembered, byte for byte, until it expires; the user row is still read on every request,
// so a role change, a disabled account or a password change takes effect at once.
const DECODED_COOKIES_MAX = 1_000;
const decodedCookies = new Map<string, CookieSession>();

async function decodeSessionCookie(raw: string): Promise<CookieSession | null> {
  const known = decodedCookies.get(raw);
  if (known && known.expiresAt > Date.now()) return known;
  decodedCookies.delete(raw);
  const token = await decode({ token: raw, secret: authSecret() }).catch(() => null);
  if (!token?.sub) return null;
  const sid = typeof token.sid === "string" ? token.sid : null;
  const session = {
    userId: token.sub,
    version: typeof token.sv === "number" ? token.sv : 0,
    sid,
    expiresAt: typeof token.exp === "number" ? token.exp * 1000 : 0,
  };
  if (!session.expiresAt) return session; // a cookie without an expiry is decoded every time
  if (decodedCookies.size >= DECODED_COOKIES_MAX) decodedCookies.delete(decodedCookies.keys().next().value!);
  decodedCookies.set(raw, session);
  return session;
}

/** The session's user id, its id and the session version it was issued under (absent on older cookies: 0). */
async function sessionFromCookie(cookieHeader: string | null): Promise<CookieClaims | null> {
  for (const name of SESSION_COOKIE_NAMES) {
    const raw = readCookie(cookieHeader, name);
    if (!raw) continue;
    const session = await decodeSessionCookie(raw);
    if (session) return session;
  }
  return null;
}

async function userOfSessionCookie(cookieHeader: string | null) {
  const session = await sessionFromCookie(cookieHeader);
  // a sign-out ends the session's id; a password change or reset bumps the version: cookies issued before it are void
  return session ? userOfSession(prisma, session) : null;
}

/**
 * Who is calling: a bearer API token or the next-auth session cookie. The user row is
 * read on every request so a role change or a disabled account takes effect at once.
 * `cookieOnly` (pages): a Bearer token is not read at all, since a page cannot honour its scopes.
 */
export async function resolveActor(headers: Headers, options: { cookieOnly?: boolean } = {}): Promise<Actor | null> {
  const authorization = options.cookieOnly ? null : headers.get("authorization");
  const user = authorization?.startsWith("Bearer ")
    ? await userForApiToken(prisma, authorization.slice(7).trim())
    : await userOfSessionCookie(headers.get("cookie"));
  if (!user || user.disabled) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

/** The one server-side guard: throws 401 without a session, 403 below the role. */
export async function requireRole(headers: Headers, minimum: RoleName): Promise<Actor> {
  const actor = await resolveActor(headers);
  if (!actor) throw new AppError("UNAUTHENTICATED", "Sign in first");
  if (!roleAtLeast(actor.role, minimum)) {
    throw new AppError("FORBIDDEN", `This needs the ${minimum} role; you are ${actor.role}`);
  }
  return actor;
}
