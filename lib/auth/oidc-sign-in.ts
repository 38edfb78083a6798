import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { auditLog } from "../audit/audit-log";
import { serverConfig } from "../config/server-config";

// Who an OpenID Connect sign-in becomes. An identity provider vouches for an e-mail only
// when it says email_verified, and only for the domains this site trusts; even then an
// existing password account is linked only after its owner, signed in, asked for it.

export const OIDC_PROVIDER_ID = "oidc";
export const OIDC_LINK_COOKIE = "swc-oidc-link";
const LINK_INTENT_MS = 10 * 60_000;

export type OidcClaims = {
  sub: string;
  email?: string | null;
  email_verified?: boolean | string | null;
  name?: string | null;
};

export type OidcRefusal =
  "OidcEmailMissing" | "OidcEmailUnverified" | "OidcDomainNotAllowed" | "OidcLinkRequired" | "AccountDisabled";
export type OidcDecision = { userId: string } | { refused: OidcRefusal };

/** OIDC_ALLOWED_DOMAINS: "example.com,example.org", or "*" for any domain; unset allows none. */
export function emailDomainAllowed(email: string, setting = serverConfig().OIDC_ALLOWED_DOMAINS): boolean {
  const domains = (setting ?? "")
    .split(",")
    .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
    .filter(Boolean);
  if (domains.includes("*")) return true;
  return domains.includes(email.slice(email.lastIndexOf("@") + 1).toLowerCase());
}

const isVerified = (value: OidcClaims["email_verified"]) => value === true || value === "true";
const hashLinkToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A signed-in user's consent to link their next single sign-on; the token goes into an HttpOnly cookie. */
export async function createOidcLinkIntent(db: Db, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + LINK_INTENT_MS);
  await db.oidcLinkIntent.deleteMany({ where: { OR: [{ userId }, { expiresAt: { lt: new Date() } }] } });
  await db.oidcLinkIntent.create({ data: { tokenHash: hashLinkToken(token), userId, expiresAt } });
  return { token, expiresAt };
}

async function consumeLinkIntent(db: Db, userId: string, token: string | null): Promise<boolean> {
  if (!token) return false;
  const { count } = await db.oidcLinkIntent.deleteMany({
    where: { tokenHash: hashLinkToken(token), userId, expiresAt: { gt: new Date() } },
  });
  return count === 1;
}

async function linkIdentity(db: Db, userId: string, claims: OidcClaims, action: string) {
  await db.account.create({
    data: { userId, type: "oidc", provider: OIDC_PROVIDER_ID, providerAccountId: claims.sub },
  });
  await auditLog(db, {
    actorId: userId,
    entityType: "user",
    entityId: userId,
    action,
    after: { provider: OIDC_PROVIDER_ID, subject: claims.sub, email: claims.email },
  });
}

/**
 * Decides an OIDC sign-in: the local user it signs in as (creating or linking as needed),
 * or why it is refused. `linkToken` is the caller's link-intent cookie, if any.
 */
export async function decideOidcSignIn(db: Db, claims: OidcClaims, linkToken: string | null): Promise<OidcDecision> {
  const linked = await db.account.findUnique({
    where: { provider_providerAccountId: { provider: OIDC_PROVIDER_ID, providerAccountId: claims.sub } },
    include: { user: true },
  });
  if (linked) return linked.user.disabled ? { refused: "AccountDisabled" } : { userId: linked.userId };

  const email = claims.email?.trim().toLowerCase();
  if (!email) return { refused: "OidcEmailMissing" };
  if (!isVerified(claims.email_verified)) return { refused: "OidcEmailUnverified" };
  if (!emailDomainAllowed(email)) return { refused: "OidcDomainNotAllowed" };

  const existing = await db.user.findUnique({
    where: { email },
    include: { accounts: { where: { provider: OIDC_PROVIDER_ID } } },
  });
  if (existing) {
    if (existing.disabled) return { refused: "AccountDisabled" };
    if (await consumeLinkIntent(db, existing.id, linkToken)) {
      await linkIdentity(db, existing.id, claims, "link_oidc_confirmed");
      return { userId: existing.id };
    }
    // a password account, or one already bound to another subject, is never taken over by e-mail alone
    if (existing.passwordHash || existing.accounts.length) return { refused: "OidcLinkRequired" };
    await linkIdentity(db, existing.id, claims, "link_oidc_passwordless");
    return { userId: existing.id };
  }
  return db.$transaction(async (tx) => {
    const user = await tx.user.create({
      data: { email, name: claims.name ?? null, role: "VIEWER", emailVerified: new Date() },
    });
    await auditLog(tx, {
      actorId: user.id,
      entityType: "user",
      entityId: user.id,
      action: "create_via_oidc",
      after: { email, role: user.role },
    });
    await linkIdentity(tx, user.id, claims, "link_oidc_new_user");
    return { userId: user.id };
  });
}

/** The local user an OIDC subject is linked to (used when the session token is minted). */
export async function userOfOidcSubject(db: Db, subject: string) {
  const account = await db.account.findUnique({
    where: { provider_providerAccountId: { provider: OIDC_PROVIDER_ID, providerAccountId: subject } },
    include: { user: true },
  });
  return account?.user ?? null;
}
