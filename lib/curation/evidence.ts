import type { Db } from "../db/client";

// What a decision is made on. The database gathers it (task_evidence() in migration
// 20261206040000_evidence_bound_decisions_and_releases), so the triggers that mark decisions
// stale and this module can never disagree about what the evidence is.

/** The evidence parts, in the order a reason names them. */
export const EVIDENCE_PARTS = ["recipe", "image", "negative", "positive", "candidateRun", "candidatePatch"] as const;
export type EvidencePart = (typeof EVIDENCE_PARTS)[number];

export const EVIDENCE_PART_LABELS: Record<EvidencePart, string> = {
  recipe: "recipe revision",
  image: "image digest",
  negative: "negative control verdict",
  positive: "positive control verdict",
  candidateRun: "candidate run verdict",
  candidatePatch: "candidate patch",
};

export type RunEvidence = { runId: string; verdict: string } | null;
export type Evidence = {
  recipe: { revisionId: string; number: number; contextHash: string | null } | null;
  image: string | null;
  negative: RunEvidence;
  positive: RunEvidence;
  candidateRun: RunEvidence;
  /** sha256 over the task's candidate patches */
  candidatePatch: string | null;
};
export type EvidenceSnapshot = { evidence: Evidence; fingerprint: string };

/** The task's evidence now and its fingerprint (sha256 of the canonical jsonb); null for a task that does not exist. */
export async function evidenceFingerprint(db: Db, taskId: string): Promise<EvidenceSnapshot | null> {
  const rows = await db.$queryRaw<{ evidence: Evidence | null; fingerprint: string | null }[]>`
    SELECT e.evidence, evidence_fingerprint(e.evidence) AS fingerprint FROM (SELECT task_evidence(${taskId}) AS evidence) e`;
  const row = rows[0];
  return row?.evidence && row.fingerprint ? { evidence: row.evidence, fingerprint: row.fingerprint } : null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value ?? null;
}

/** The parts of two evidence documents that differ (as the database's evidence_changed_parts). */
export function changedEvidenceParts(
  before: Partial<Evidence> | null,
  after: Partial<Evidence> | null,
): EvidencePart[] {
  return EVIDENCE_PARTS.filter((part) => !same(before?.[part], after?.[part]));
}

const VERDICT_PARTS = ["negative", "positive", "candidateRun"] as const;

/** True when a control's verdict differs (a rerun that agrees is no flip). */
export function verdictsFlipped(before: Partial<Evidence> | null, after: Partial<Evidence> | null): boolean {
  return VERDICT_PARTS.some((part) => (before?.[part]?.verdict ?? null) !== (after?.[part]?.verdict ?? null));
}
