import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { dockerAvailability } from "@/lib/queue/docker-availability";

export const dynamic = "force-dynamic";

/** Can builds and validations run? This web process's own view of Docker, and the live workers'. */
export const GET = defineRoute(PERMISSIONS["tasks:read"], () => dockerAvailability(prisma, createDockerEngine()));
