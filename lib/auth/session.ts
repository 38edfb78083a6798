import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { resolveActor, type Actor } from "./actor";
import { roleAtLeast, type RoleName } from "./permissions";

// The layout and its page both ask who is signed in: one lookup per request serves both.
const actorOfThisRequest = cache(async () => resolveActor(await headers()));

/** For server components: the signed-in actor, or a redirect to sign-in. */
export async function pageActor(minimum: RoleName = "VIEWER"): Promise<Actor> {
  const actor = await actorOfThisRequest();
  if (!actor) redirect("/signin");
  if (!roleAtLeast(actor.role, minimum)) redirect("/forbidden");
  return actor;
}
