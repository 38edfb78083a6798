import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/auth-options";
import { readCookie } from "@/lib/auth/cookies";
import { OIDC_LINK_COOKIE } from "@/lib/auth/oidc-sign-in";
import { throttledPasswordSignIn } from "@/lib/auth/password-sign-in";

// next-auth's own endpoints (sign-in, sign-out, session, csrf): public by design; next-auth
// checks its CSRF token on every POST. Password sign-ins pass the throttle first.
const handler = (request: Request, context: unknown) => {
  const options = authOptions({ oidcLinkToken: readCookie(request.headers.get("cookie"), OIDC_LINK_COOKIE) ?? null });
  const run = () => NextAuth(options)(request, context);
  const isPasswordSignIn = request.method === "POST" && new URL(request.url).pathname.endsWith("/callback/credentials");
  return isPasswordSignIn ? throttledPasswordSignIn(request, run) : run();
};

export { handler as GET, handler as POST };
