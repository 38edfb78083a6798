import { defineRoute } from "@/lib/http/define-route";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { jobsOverview } from "@/lib/runs/jobs-overview";
import { AnyObject } from "@/lib/http/api-schemas";

export const dynamic = "force-dynamic";

export const GET = defineRoute(
  { permission: "tasks:read", summary: "Queued, running and failed jobs across workers", response: AnyObject },
  ({ db, blind }) => jobsOverview(db, createDockerEngine(), blind),
);
