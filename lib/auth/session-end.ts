import { randomBytes } from "node:crypto";
import type { Db } from "../db/client";

// Sessions are JWT cookies (next-auth's jwt strategy): nothing is stored per session, so
// signing out used to only drop the cookie, and a copy of it stayed valid until it expired.
// Each session now carries an id (`sid`); signing out records it in ended_sessions, and every
// request refuses a cookie whose id is there, or that has no id at all.

const SESSION_SECONDS = 12 * 60 * 60;

export const newSessionId = () => randomBytes(18).toString("base64url");

/** Ends the session a decoded cookie belongs to, on every web node; rows older than any cookie are cleared on the way. */
export async function endSession(db: Db, token: Record<string, unknown>) {
  if (typeof token.sid !== "string" || !token.sid) return;
  const expiresAt = new Date(typeof token.exp === "number" ? token.exp * 1000 : Date.now() + SESSION_SECONDS * 1000);
  await db.endedSession.upsert({ where: { id: token.sid }, create: { id: token.sid, expiresAt }, update: {} });
  await db.endedSession.deleteMany({ where: { expiresAt: { lt: new Date() } } });
}

export type CookieClaims = { userId: string; version: number; sid: string | null };

/**
 * The user a session cookie speaks for, or null when the session was signed out, has no id,
 * or was issued before the user's last password change (its version is behind).
 */
export async function userOfSession(db: Db, claims: CookieClaims) {
  if (!claims.sid) return null;
  const [user, ended] = await Promise.all([
    db.user.findUnique({ where: { id: claims.userId } }),
    db.endedSession.findUnique({ where: { id: claims.sid }, select: { id: true } }),
  ]);
  return user && !ended && user.sessionVersion === claims.version ? user : null;
}
