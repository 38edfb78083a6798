import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { resolveActor, type Actor } from "./actor";
import { can, type Permission } from "./permissions";

// Pages are for a browser with a session cookie. An API token's scopes are checked by the API
// routes (lib/http/define-route.ts); a page shows whatever its role allows, so a token — say a
// read-only one of an admin — would reach more than its scopes: pages do not read tokens at all.
export const pageRequestActor = (requestHeaders: Headers) => resolveActor(requestHeaders, { cookieOnly: true });
const actorOfThisRequest = cache(async () => pageRequestActor(await headers()));

/** The signed-in actor holding the permission, or a redirect to sign-in / forbidden; `actor` is who the request's cookie speaks for. */
export function pageActorOf(actor: Actor | null, permission: Permission): Actor {
  if (!actor) redirect("/signin");
  if (!can(actor.role, permission)) redirect("/forbidden");
  return actor;
}

/** For server components (the layout and its page share one lookup per request). */
export async function pageActor(permission: Permission = "tasks:read"): Promise<Actor> {
  return pageActorOf(await actorOfThisRequest(), permission);
}
