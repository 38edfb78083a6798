import { defineRoute } from "@/lib/http/define-route";
import { releaseExportResponse, ReleaseExportQuerySchema } from "@/lib/releases/export-release";
import { IdParams } from "@/lib/http/api-schemas";

/** ?file=jsonl (the tasks, SWE-bench rows naming the release) or ?file=manifest (the release's contents); both file names carry the release's name. */
export const GET = defineRoute(
  {
    permission: "exports:run",
    summary: "A release's export file: SWE-bench JSONL or its manifest, named after the release",
    params: IdParams,
    query: ReleaseExportQuerySchema,
    produces: "application/x-ndjson",
  },
  ({ db, params, query, blind }) => releaseExportResponse(db, params.id, blind, query),
);
