import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { cancelBuild } from "@/lib/builds/cancel-build";

export const POST = defineRoute<{ id: string }>(PERMISSIONS["jobs:run"], ({ params }) => cancelBuild(prisma, params.id));
