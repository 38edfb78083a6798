import type { AutomatedVerdict, CurationStatus, DecisionReason, DecisionVerdict } from "../db/enums";

// The rules of a curation decision, pure so the form shows the same rules the server enforces.

export const DECISION_REASON_LABELS: Record<DecisionReason, string> = {
  ISSUE_PATCH_MISALIGNED: "Issue and patch misaligned",
  SOLUTION_LEAKED_IN_ISSUE: "Solution leaked in the issue",
  TRIVIAL: "Trivial",
  UNSOLVABLE: "Unsolvable",
  FLAKY: "Flaky",
  ENVIRONMENT_BROKEN: "Environment broken",
  TESTS_TOO_WEAK: "Tests too weak",
  OTHER: "Other",
};

export const MIN_JUSTIFICATION = 10;

/**
 * How long a curator may take back their own decision (lib/curation/undo-decision.ts). A misclick
 * is noticed at once; past this, a changed mind is a new decision, which supersedes the old one.
 */
export const UNDO_WINDOW_MS = 15 * 60_000;

/** A person's verdict contradicts automation when approving what automation found broken, or rejecting what it validated. */
export function overridesAutomated(verdict: DecisionVerdict, automated: AutomatedVerdict): boolean {
  if (verdict === "APPROVE") return automated === "INVALID" || automated === "FLAKY";
  if (verdict === "REJECT") return automated === "VALID";
  return false;
}

/** The task's status from each curator's latest decision: any reject wins, then needs-changes, then enough approvals. */
export function statusFromDecisions(latest: readonly DecisionVerdict[], required: number): CurationStatus {
  if (latest.includes("REJECT")) return "REJECTED";
  if (latest.includes("NEEDS_CHANGES")) return "NEEDS_CHANGES";
  return latest.filter((v) => v === "APPROVE").length >= required ? "APPROVED" : "PENDING";
}

/** What is missing before the decision can be sent, in words, or null. */
export function decisionProblem(
  input: { verdict: DecisionVerdict; reasons: readonly DecisionReason[]; comment?: string; justification?: string },
  automated: AutomatedVerdict,
): string | null {
  if (input.verdict !== "APPROVE" && input.reasons.length === 0)
    return `Pick at least one reason to ${input.verdict === "REJECT" ? "reject" : "ask for changes"}`;
  if (input.reasons.includes("OTHER") && !input.comment?.trim())
    return 'The reason "Other" needs a comment saying what is wrong';
  if (overridesAutomated(input.verdict, automated) && (input.justification?.trim().length ?? 0) < MIN_JUSTIFICATION) {
    return `Automation judged this task ${automated}; to ${input.verdict === "APPROVE" ? "approve" : "reject"} it anyway, write a justification (at least ${MIN_JUSTIFICATION} characters)`;
  }
  return null;
}
