import { decode } from "next-auth/jwt";
import { prisma } from "../db/client";
import { AppError } from "../errors/app-error";
import { roleAtLeast, type RoleName } from "./permissions";
import { userForApiToken } from "./api-tokens";
import { authSecret } from "./secret";

export type Actor = { id: string; email: string; name: string | null; role: RoleName };

export const SESSION_COOKIE_NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  // next-auth splits a large session cookie into name.0, name.1, …
  const cookies = new Map(
    header.split(";").map((part) => {
      const i = part.indexOf("=");
      return [part.slice(0, i).trim(), decodeURIComponent(part.slice(i + 1).trim())] as const;
    }),
  );
  if (cookies.has(name)) return cookies.get(name);
  const chunks: string[] = [];
  for (let i = 0; cookies.has(`${name}.${i}`); i++) chunks.push(cookies.get(`${name}.${i}`)!);
  return chunks.length ? chunks.join("") : undefined;
}

async function userIdFromSessionCookie(cookieHeader: string | null): Promise<string | null> {
  for (const name of SESSION_COOKIE_NAMES) {
    const raw = readCookie(cookieHeader, name);
    if (!raw) continue;
    const token = await decode({ token: raw, secret: authSecret() }).catch(() => null);
    if (token?.sub) return token.sub;
  }
  return null;
}

/**
 * Who is calling: a bearer API token or the next-auth session cookie. The user row is
 * read on every request so a role change or a disabled account takes effect at once.
 */
export async function resolveActor(headers: Headers): Promise<Actor | null> {
  const authorization = headers.get("authorization");
  const user = authorization?.startsWith("Bearer ")
    ? await userForApiToken(prisma, authorization.slice(7).trim())
    : await userIdFromSessionCookie(headers.get("cookie")).then((id) => (id ? prisma.user.findUnique({ where: { id } }) : null));
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
