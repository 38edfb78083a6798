import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../db/client";
import { auditLog } from "../audit/audit-log";

// A token is shown once at creation; only its SHA-256 is stored, so a database leak
// yields no usable token. "swc_" makes tokens recognisable to secret scanners.
const TOKEN_PREFIX = "swc_";

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export const CreateApiTokenSchema = z.object({
  name: z.string().trim().min(1).max(100),
  expiresInDays: z.number().int().positive().max(3650).optional(),
});
export type CreateApiTokenInput = z.infer<typeof CreateApiTokenSchema>;

export async function createApiToken(db: Db, userId: string, input: CreateApiTokenInput) {
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const record = await db.apiToken.create({
    data: {
      userId,
      name: input.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, 10),
      expiresAt: input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null,
    },
    select: { id: true, name: true, prefix: true, expiresAt: true, createdAt: true },
  });
  await auditLog(db, { actorId: userId, entityType: "api_token", entityId: record.id, action: "create", after: record });
  return { ...record, token };
}

/** The user behind a bearer token, or null when it is unknown, revoked or expired. */
export async function userForApiToken(db: Db, token: string) {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const record = await db.apiToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
  if (!record || record.revokedAt || (record.expiresAt && record.expiresAt < new Date())) return null;
  // last-use is informative only: a lost update here is harmless
  // at most once a minute, so a busy client does not turn every read into a write
  if (!record.lastUsedAt || Date.now() - record.lastUsedAt.getTime() > 60_000) {
    void db.apiToken.update({ where: { id: record.id }, data: { lastUsedAt: new Date() } }).catch(() => {});
  }
  return record.user;
}
