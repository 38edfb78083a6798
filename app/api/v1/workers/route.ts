import { defineRoute } from "@/lib/http/define-route";
import { listWorkers } from "@/lib/worker-runtime/list-workers";
import { WorkerPageSchema } from "@/lib/http/api-schemas";
import { PageQuerySchema, pageOf } from "@/lib/http/pagination";

export const dynamic = "force-dynamic";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Workers and their heartbeats",
    query: PageQuerySchema,
    response: WorkerPageSchema,
  },
  async ({ db, query }) => pageOf(await listWorkers(db), query, (worker) => worker.id),
);
