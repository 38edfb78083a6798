import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { revokeApiToken } from "@/lib/auth/manage-api-tokens";

export const DELETE = defineRoute<{ id: string }>("VIEWER", ({ actor, params }) => revokeApiToken(prisma, actor, params.id));
