import "server-only";
import { pageContext } from "@/lib/http/page-context";
import { can } from "@/lib/auth/permissions";
import { getRelease, listReleases } from "@/lib/releases/read-releases";
import { diffReleases } from "@/lib/releases/diff-releases";

// The releases pages read through the same lib functions as GET /api/v1/releases…, with the
// reader's blind set as the routes apply it.

export async function releasesPageData() {
  const { db, actor } = await pageContext("tasks:read");
  return { releases: await listReleases(db), mayCreate: can(actor.role, "releases:create") };
}

export async function releasePageData(idOrName: string) {
  const { db, blind } = await pageContext("tasks:read");
  const release = await getRelease(db, idOrName, blind);
  const releases = await listReleases(db);
  // the release made just before this one, to compare with
  const previous = releases[releases.findIndex((r) => r.id === release.id) + 1] ?? null;
  return { release, previous };
}

export async function releaseDiffPageData(from: string | undefined, to: string | undefined) {
  const { db, blind } = await pageContext("tasks:read");
  const releases = await listReleases(db);
  const diff = from && to ? await diffReleases(db, from, to, blind) : null;
  return { releases, diff };
}
