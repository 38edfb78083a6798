import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { jobsOverview } from "@/lib/queue/jobs-overview";

export const dynamic = "force-dynamic";

export const GET = defineRoute(PERMISSIONS["tasks:read"], () => jobsOverview(prisma, createDockerEngine()));
