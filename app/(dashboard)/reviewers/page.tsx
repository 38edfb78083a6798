import { ReviewerScores } from "@/components/trajectory/reviewer-scores";

export default function ReviewersPage() {
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Reviewer agents against executed ground truth</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        Each reviewer verdict (approve / request changes) is compared with whether the candidate patch actually resolved its task in a validation run. A false
        approval is a patch the reviewer let through that does not resolve the task.
      </p>
      <ReviewerScores />
    </>
  );
}
