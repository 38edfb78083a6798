import type { Db } from "../db/client";
import { notFound } from "../errors/app-error";
import { auditLog } from "../audit/audit-log";
import type { Actor } from "./actor";
import { TOKEN_FIELDS } from "./api-tokens";
import { allPages, keysetPage, type PageQuery } from "../db/keyset-page";

/** The caller's own tokens, newest first, a page at a time. */
export async function listOwnApiTokens(db: Db, actor: Actor, page: PageQuery) {
  return keysetPage(page, (args) =>
    db.apiToken.findMany({
      where: { userId: actor.id },
      select: TOKEN_FIELDS,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...args,
    }),
  );
}

/** All the caller's own tokens, for the tokens page (its client gathers the same pages from GET /api/v1/tokens). */
export const listAllOwnApiTokens = (db: Db, actor: Actor) => allPages((page) => listOwnApiTokens(db, actor, page));

/** Scoped to the caller: revoking someone else's token reads as "not found". */
export async function revokeApiToken(db: Db, actor: Actor, tokenId: string) {
  const token = await db.apiToken.findFirst({ where: { id: tokenId, userId: actor.id } });
  if (!token) throw notFound("That token");
  const revoked = await db.apiToken.update({
    where: { id: tokenId },
    data: { revokedAt: token.revokedAt ?? new Date() },
  });
  await auditLog(db, {
    actorId: actor.id,
    entityType: "api_token",
    entityId: tokenId,
    action: "revoke",
    before: { revokedAt: token.revokedAt },
    after: { revokedAt: revoked.revokedAt },
  });
  return { id: tokenId, revokedAt: revoked.revokedAt };
}
