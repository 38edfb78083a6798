import { decode } from "next-auth/jwt";
import { prisma } from "../db/client";
import { AppError } from "../errors/app-error";
import { roleAtLeast, type RoleName } from "./permissions";
import { userForApiToken } from "./api-tokens";
import { authSecret } from "./secret";
import { readCookie, SESSION_COOKIE_NAMES } from "./cookies";

export type Actor = { id: string; email: string; name: string | null; role: RoleName };

/** The session's user id and the session version it was issued under (absent on older cookies: 0). */
async function sessionFromCookie(cookieHeader: string | null): Promise<{ userId: string; version: number } | null> {
  for (const name of SESSION_COOKIE_NAMES) {
    const raw = readCookie(cookieHeader, name);
    if (!raw) continue;
    const token = await decode({ token: raw, secret: authSecret() }).catch(() => null);
    if (token?.sub) return { userId: token.sub, version: typeof token.sv === "number" ? token.sv : 0 };
  }
  return null;
}

async function userOfSessionCookie(cookieHeader: string | null) {
  const session = await sessionFromCookie(cookieHeader);
  if (!session) return null;
  const user = await prisma.user.findUnique({ where: { id: session.userId } });
  // a password change or reset bumps the version: cookies issued before it are void
  return user && user.sessionVersion === session.version ? user : null;
}

/**
 * Who is calling: a bearer API token or the next-auth session cookie. The user row is
 * read on every request so a role change or a disabled account takes effect at once.
 */
export async function resolveActor(headers: Headers): Promise<Actor | null> {
  const authorization = headers.get("authorization");
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
