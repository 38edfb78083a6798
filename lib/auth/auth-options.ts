import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { prisma } from "../db/client";
import { verifyPassword } from "./passwords";
import { authSecret } from "./secret";
import { oidcProviderFromEnv } from "./oidc-provider";
import { auditLog } from "../audit/audit-log";

const CredentialsSchema = z.object({ email: z.string().trim().toLowerCase().email(), password: z.string().min(1) });

async function authorizeWithPassword(raw: unknown) {
  const parsed = CredentialsSchema.safeParse(raw);
  if (!parsed.success) return null;
  const user = await prisma.user.findUnique({ where: { email: parsed.data.email } });
  if (!user?.passwordHash || user.disabled) return null;
  if (!(await verifyPassword(parsed.data.password, user.passwordHash))) return null;
  return { id: user.id, email: user.email, name: user.name ?? user.email, role: user.role };
}

/** Users arriving through OIDC get an account on first sign-in, as VIEWER until an admin promotes them. */
async function ensureOidcUser(email: string, name: string | null | undefined) {
  const existing = await prisma.user.findUnique({ where: { email } });
  if (existing) return existing;
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.create({ data: { email, name: name ?? null, role: "VIEWER" } });
    await auditLog(tx, { actorId: user.id, entityType: "user", entityId: user.id, action: "create_via_oidc", after: { email, role: user.role } });
    return user;
  });
}

export function authOptions(): NextAuthOptions {
  const oidc = oidcProviderFromEnv();
  return {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize: authorizeWithPassword,
      }),
      ...(oidc ? [oidc] : []),
    ],
    callbacks: {
      async signIn({ user, account }) {
        if (account?.provider === "credentials") return true;
        if (!user.email) return false;
        const local = await ensureOidcUser(user.email.toLowerCase(), user.name);
        return !local.disabled;
      },
      async jwt({ token, user, account }) {
        // the token carries only the user id; the role is read from the database per request
        if (user && account?.provider !== "credentials" && user.email) {
          const local = await prisma.user.findUnique({ where: { email: user.email.toLowerCase() } });
          if (local) token.sub = local.id;
        }
        return token;
      },
      async session({ session, token }) {
        const user = token.sub ? await prisma.user.findUnique({ where: { id: token.sub } }) : null;
        return { ...session, user: user ? { id: user.id, email: user.email, name: user.name, role: user.role } : undefined };
      },
    },
  };
}
