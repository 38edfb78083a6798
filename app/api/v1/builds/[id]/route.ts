import { defineRoute } from "@/lib/http/define-route";
import { getBuild } from "@/lib/builds/list-environment-builds";
import { BuildSchema, IdParams } from "@/lib/http/api-schemas";

export const GET = defineRoute(
  { permission: "tasks:read", summary: "One build with its log", params: IdParams, response: BuildSchema },
  ({ db, params }) => getBuild(db, params.id),
);
