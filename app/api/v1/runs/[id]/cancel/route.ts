import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { cancelValidation } from "@/lib/runs/cancel-validation";

/** Cancels the run's whole group (a validation is its controls together). */
export const POST = defineRoute<{ id: string }>(PERMISSIONS["jobs:run"], ({ params }) => cancelValidation(prisma, { runId: params.id }));
