import { defineRoute } from "@/lib/http/define-route";
import { prisma } from "@/lib/db/client";
import { scoreReviewers } from "@/lib/trajectories/score-reviewers";
import { AnyObject } from "@/lib/http/api-schemas";

export const GET = defineRoute({ permission: "tasks:read", summary: "Reviewer agents' verdicts scored against executed ground truth", response: AnyObject }, () => scoreReviewers(prisma));
