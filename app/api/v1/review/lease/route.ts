import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { releaseLeases } from "@/lib/curation/claim-next-task";

/** Leaving queue mode gives the curator's lease back at once instead of waiting for it to expire. */
export const DELETE = defineRoute(PERMISSIONS["tasks:decide"], async ({ actor }) => {
  await releaseLeases(prisma, actor.id);
  return { released: true };
});
