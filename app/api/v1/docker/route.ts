import { defineRoute } from "@/lib/http/define-route";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { dockerAvailability } from "@/lib/worker-runtime/docker-availability";
import { AnyObject } from "@/lib/http/api-schemas";

export const dynamic = "force-dynamic";

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Can builds and validations run? This web process's view of Docker, and the live workers'",
    response: AnyObject,
  },
  ({ db }) => dockerAvailability(db, createDockerEngine()),
);
