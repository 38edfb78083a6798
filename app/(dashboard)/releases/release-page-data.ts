import "server-only";
import { prisma } from "@/lib/db/client";
import { pageActor } from "@/lib/auth/session";
import { blindSetOf } from "@/lib/campaigns/blind";
import { can } from "@/lib/auth/permissions";
import { getRelease, listReleases } from "@/lib/releases/read-releases";
import { diffReleases } from "@/lib/releases/diff-releases";

// The releases pages read through the same lib functions as GET /api/v1/releases…, with the
// reader's blind set as the routes apply it.

export async function releasesPageData() {
  const actor = await pageActor("tasks:read");
  return { releases: await listReleases(prisma), mayCreate: can(actor.role, "releases:create") };
}

export async function releasePageData(idOrName: string) {
  const actor = await pageActor("tasks:read");
  const release = await getRelease(prisma, idOrName, blindSetOf(prisma, actor));
  const releases = await listReleases(prisma);
  // the release made just before this one, to compare with
  const previous = releases[releases.findIndex((r) => r.id === release.id) + 1] ?? null;
  return { release, previous };
}

export async function releaseDiffPageData(from: string | undefined, to: string | undefined) {
  const actor = await pageActor("tasks:read");
  const releases = await listReleases(prisma);
  const diff = from && to ? await diffReleases(prisma, from, to, blindSetOf(prisma, actor)) : null;
  return { releases, diff };
}
