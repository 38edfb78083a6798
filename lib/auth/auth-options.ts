import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { prisma } from "../db/client";
import { authSecret } from "./secret";
import { oidcProviderFromEnv } from "./oidc-provider";
import { authorizeWithPassword } from "./password-sign-in";
import { decideOidcSignIn, userOfOidcSubject, type OidcClaims } from "./oidc-sign-in";
import { sameOriginUrl } from "./safe-redirect";
import { servedOverHttps } from "../config/server-config";
import { endSession, newSessionId, userOfSession } from "./session-end";

export type AuthRequestContext = {
  /** the caller's OIDC link-intent cookie: set when a signed-in user asked to link single sign-on */
  oidcLinkToken?: string | null;
};

const signInPageWithError = (code: string) => `/signin?${new URLSearchParams({ error: code })}`;

/** next-auth's options, built per request so the OIDC link decision can see the caller's cookie. */
export function authOptions(context: AuthRequestContext = {}): NextAuthOptions {
  const oidc = oidcProviderFromEnv();
  const secure = servedOverHttps();
  return {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/signin", error: "/signin" },
    // next-auth's defaults spelled out: HttpOnly, SameSite=Lax, Secure (and __Secure- names) behind https
    useSecureCookies: secure,
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize: authorizeWithPassword,
      }),
      ...(oidc ? [oidc] : []),
    ],
    callbacks: {
      async signIn({ account, profile }) {
        if (account?.provider === "credentials") return true;
        const decision = await decideOidcSignIn(
          prisma,
          { ...(profile as OidcClaims), sub: account!.providerAccountId },
          context.oidcLinkToken ?? null,
        );
        return "refused" in decision ? signInPageWithError(decision.refused) : true;
      },
      async jwt({ token, user, account }) {
        // the token carries the local user id and its session version; the role is read per request
        if (!user) return token;
        // a new id per sign-in: signing out ends this session alone (lib/auth/session-end.ts)
        token.sid = newSessionId();
        if (account?.provider === "credentials") {
          token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 0;
          return token;
        }
        // never the identity provider's own `sub`: it could equal a local user's id
        const local = account ? await userOfOidcSubject(prisma, account.providerAccountId) : null;
        if (!local) throw new Error("OIDC sign-in without a linked account");
        return { ...token, sub: local.id, sv: local.sessionVersion };
      },
      async session({ session, token }) {
        const sid = typeof token.sid === "string" ? token.sid : null;
        const user = token.sub
          ? await userOfSession(prisma, {
              userId: token.sub,
              version: typeof token.sv === "number" ? token.sv : 0,
              sid,
            })
          : null;
        const current = user && !user.disabled;
        return {
          ...session,
          user: current ? { id: user.id, email: user.email, name: user.name, role: user.role } : undefined,
        };
      },
      redirect({ url, baseUrl }) {
        return sameOriginUrl(url, baseUrl) ?? baseUrl;
      },
    },
    events: {
      // next-auth only drops the cookie; this ends the session on the server, so a copy of the cookie stops working too
      async signOut({ token }) {
        if (token) await endSession(prisma, token);
      },
    },
  };
}
