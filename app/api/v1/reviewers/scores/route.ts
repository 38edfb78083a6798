import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { scoreReviewers } from "@/lib/trajectories/score-reviewers";

export const GET = defineRoute("VIEWER", () => scoreReviewers(prisma));
