import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { listWorkers } from "@/lib/worker-runtime/worker-heartbeat";
import { WorkerPageSchema } from "@/lib/http/api-schemas";
import { PageQuerySchema, pageOf } from "@/lib/http/pagination";

export const dynamic = "force-dynamic";

export const GET = defineRoute({ permission: "tasks:read", summary: "Workers and their heartbeats", query: PageQuerySchema, response: WorkerPageSchema }, async ({ query }) =>
  pageOf(await listWorkers(prisma), query, (worker) => worker.id),
);
