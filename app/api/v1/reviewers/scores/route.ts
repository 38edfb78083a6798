import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { scoreReviewers } from "@/lib/trajectories/score-reviewers";
import { PageQuerySchema, pageOf, pageSchema } from "@/lib/http/pagination";

const ReviewerScoreSchema = z.looseObject({ reviewer: z.string() }).meta({ id: "ReviewerScore" });

export const GET = defineRoute(
  {
    permission: "tasks:read",
    summary: "Reviewer agents' verdicts scored against executed ground truth",
    query: PageQuerySchema,
    response: pageSchema(ReviewerScoreSchema),
  },
  async ({ db, query, blind }) => pageOf(await scoreReviewers(db, blind), query, (score) => score.reviewer),
);
