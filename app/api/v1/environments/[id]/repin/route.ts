import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { repinEnvironmentImage } from "@/lib/environments/repin-image";
import { IdParams } from "@/lib/http/api-schemas";

const RepinSchema = z
  .object({ id: z.string(), imageReference: z.string().nullable(), imageDigest: z.null() })
  .meta({ id: "EnvironmentRepin" });

export const POST = defineRoute(
  {
    permission: "environments:edit",
    summary: "Forget a published image's pinned digest: the next validation pulls and pins it anew",
    params: IdParams,
    response: RepinSchema,
  },
  ({ db, actor, params }) => repinEnvironmentImage(db, actor, params.id),
);
