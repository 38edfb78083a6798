import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { ClusterQuerySchema, failureClustersResponse } from "@/lib/trajectories/failure-clusters";

const ClustersSchema = z
  .looseObject({
    clusters: z.array(z.looseObject({ key: z.string(), errorClass: z.string(), count: z.number().int() })),
    trajectories: z.number().int(),
    capped: z.boolean(),
  })
  .meta({ id: "FailureClusters" });

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary:
      "Failed trajectories grouped by failure signature (last error class, failing tool, failing tests); ?format=csv for every member",
    query: ClusterQuerySchema,
    response: ClustersSchema,
  },
  ({ db, query, blind }) => failureClustersResponse(db, query, blind),
);
