import { defineRoute } from "@/lib/http/define-route";
import { getRelease } from "@/lib/releases/read-releases";
import { refuseReleaseChange } from "@/lib/releases/create-release";
import { IdParams, ReleaseSchema } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "A release (by id or name): its tasks, evidence fingerprints and decisions",
    params: IdParams,
    response: ReleaseSchema,
  },
  ({ db, params, blind }) => getRelease(db, params.id, blind),
);

// Releases are immutable: these answer why (409) instead of a bare 405, and the database refuses the change anyway.
export const PATCH = defineRoute(
  {
    permission: "releases:create",
    summary: "Refused: a release never changes (create a new one)",
    params: IdParams,
    response: ReleaseSchema,
  },
  ({ db, params }) => refuseReleaseChange(db, params.id),
);

export const DELETE = defineRoute(
  {
    permission: "releases:create",
    summary: "Refused: a release is never deleted",
    params: IdParams,
    response: ReleaseSchema,
  },
  ({ db, params }) => refuseReleaseChange(db, params.id),
);
