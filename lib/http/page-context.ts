import "server-only";
import { prisma, type PrismaClient } from "../db/client";
import type { Actor } from "../auth/actor";
import { blindSetOf, type BlindSet } from "../auth/blind";
import type { Permission } from "../auth/permissions";
import { pageActor } from "../auth/session";

/** What a page reads with: the same three things defineRoute hands a route. */
export type PageContext = { db: PrismaClient; actor: Actor; blind: BlindSet };

/**
 * A server page's one door to lib/: the signed-in actor holding `permission` (or a redirect to
 * sign-in / forbidden), the reader's blind set, and the database the lib/<feature> read
 * functions take. A page calls the same read function as its API route with these, so
 * blindness and permissions are applied in one place; app/ never imports the Prisma client
 * (eslint.layers.mjs).
 */
export async function pageContext(permission: Permission = "tasks:read"): Promise<PageContext> {
  const actor = await pageActor(permission);
  return { db: prisma, actor, blind: blindSetOf(prisma, actor) };
}
