import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { cancelImport } from "@/lib/imports/import-batches";

/** Stops a running import at its next write batch; what was written stays. */
export const POST = defineRoute<{ id: string }>(PERMISSIONS["imports:run"], ({ params, actor }) => cancelImport(prisma, params.id, actor.id));
