import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { resolveActor, type Actor } from "./actor";
import { roleAtLeast, type RoleName } from "./permissions";

/** For server components: the signed-in actor, or a redirect to sign-in. */
export async function pageActor(minimum: RoleName = "VIEWER"): Promise<Actor> {
  const actor = await resolveActor(await headers());
  if (!actor) redirect("/signin");
  if (!roleAtLeast(actor.role, minimum)) redirect("/forbidden");
  return actor;
}
