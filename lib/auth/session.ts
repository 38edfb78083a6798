import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { resolveActor, type Actor } from "./actor";
import { can, type Permission } from "./permissions";

// The layout and its page both ask who is signed in: one lookup per request serves both.
const actorOfThisRequest = cache(async () => resolveActor(await headers()));

/** For server components: the signed-in actor holding the page's permission, or a redirect to sign-in / forbidden. */
export async function pageActor(permission: Permission = "tasks:read"): Promise<Actor> {
  const actor = await actorOfThisRequest();
  if (!actor) redirect("/signin");
  if (!can(actor.role, permission)) redirect("/forbidden");
  return actor;
}
