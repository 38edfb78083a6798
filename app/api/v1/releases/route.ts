import { defineRoute } from "@/lib/http/define-route";
import { listReleases } from "@/lib/releases/read-releases";
import { createRelease, CreateReleaseSchema } from "@/lib/releases/create-release";
import { ReleasePageSchema, ReleaseSummarySchema } from "@/lib/http/api-schemas";
import { PageQuerySchema, pageOf } from "@/lib/http/pagination";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Releases of the curated set, newest first",
    query: PageQuerySchema,
    response: ReleasePageSchema,
  },
  async ({ db, query }) => pageOf(await listReleases(db), query, (release) => release.id),
);

export const POST = defineRoute(
  {
    permission: "releases:create",
    summary:
      "Snapshot the curated set (approved tasks, their evidence fingerprints and decisions) as a named, immutable release",
    body: CreateReleaseSchema,
    response: ReleaseSummarySchema,
    status: 201,
    idempotent: true,
  },
  ({ db, actor, body }) => createRelease(db, actor, body),
);
