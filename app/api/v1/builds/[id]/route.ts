import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { getBuild } from "@/lib/builds/list-environment-builds";

export const GET = defineRoute<{ id: string }>(PERMISSIONS["tasks:read"], ({ params }) => getBuild(prisma, params.id));
