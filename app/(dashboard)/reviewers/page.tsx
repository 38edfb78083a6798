import { pageContext } from "@/lib/http/page-context";
import { scoreReviewers } from "@/lib/trajectories/score-reviewers";
import { Prefetched } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { ReviewerScores } from "@/components/trajectory/reviewer-scores";

export default async function ReviewersPage() {
  // the route's permission (tasks:read), and the reader's blind set, as the route applies it
  const { db, blind } = await pageContext();
  // every score, as the client gathers them from GET /api/v1/reviewers/scores page by page
  const scores = await scoreReviewers(db, blind);
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Reviewer agents against executed ground truth</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        Each reviewer verdict (approve / request changes) is compared with whether the candidate patch actually resolved
        its task in a validation run. A false approval is a patch the reviewer let through that does not resolve the
        task.
      </p>
      <Prefetched entries={[[queryKeys.reviewerScores(), scores]]}>
        <ReviewerScores />
      </Prefetched>
    </>
  );
}
