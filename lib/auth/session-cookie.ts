import { encode } from "next-auth/jwt";
import { authSecret } from "./secret";
import { readCookie, SESSION_COOKIE_NAMES } from "./cookies";
import { newSessionId } from "./session-end";

const SESSION_SECONDS = 12 * 60 * 60;

/**
 * A Set-Cookie value carrying a fresh session for `user` under its current session
 * version, in the cookie the request came with: after a password change the caller stays
 * signed in while every other session is void.
 */
export async function freshSessionCookie(
  request: Request,
  user: { id: string; email: string; name: string | null; sessionVersion: number },
) {
  const cookieHeader = request.headers.get("cookie");
  const name = SESSION_COOKIE_NAMES.find((n) => readCookie(cookieHeader, n) !== undefined) ?? SESSION_COOKIE_NAMES[1];
  const value = await encode({
    token: { sub: user.id, email: user.email, name: user.name, sv: user.sessionVersion, sid: newSessionId() },
    secret: authSecret(),
    maxAge: SESSION_SECONDS,
  });
  const secure = name.startsWith("__Secure-") ? "; Secure" : "";
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_SECONDS}${secure}`;
}
