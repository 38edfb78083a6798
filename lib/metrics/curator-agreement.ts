import { cohenKappa, fleissKappa, type CohenResult, type FleissResult } from "./kappa";

// Agreement is computed over each curator's latest decision per task: a curator who
// changed their mind counts once, with the verdict they hold now.

export const VERDICTS = ["APPROVE", "REJECT", "NEEDS_CHANGES"] as const;
export type Verdict = (typeof VERDICTS)[number];

export type DecisionForAgreement = {
  taskId: string;
  curatorId: string;
  verdict: Verdict;
  reasons: readonly string[];
  createdAt: Date;
};

export type PairAgreement = CohenResult & { curatorA: string; curatorB: string };
export type ReasonAgreement = FleissResult & { reason: string; timesUsed: number };
export type Disagreement = {
  taskId: string;
  verdicts: { curatorId: string; verdict: Verdict; reasons: readonly string[] }[];
};

export type AgreementReport = {
  curators: string[];
  tasksWithSeveralCurators: number;
  overall: FleissResult;
  pairs: PairAgreement[];
  reasons: ReasonAgreement[];
  disagreements: Disagreement[];
};

/** The latest decision of each curator on each task, grouped by task. */
export function latestDecisionsByTask(
  decisions: readonly DecisionForAgreement[],
): Map<string, Map<string, DecisionForAgreement>> {
  const byTask = new Map<string, Map<string, DecisionForAgreement>>();
  for (const decision of decisions) {
    const perCurator = byTask.get(decision.taskId) ?? new Map<string, DecisionForAgreement>();
    const previous = perCurator.get(decision.curatorId);
    if (!previous || previous.createdAt <= decision.createdAt) perCurator.set(decision.curatorId, decision);
    byTask.set(decision.taskId, perCurator);
  }
  return byTask;
}

function pairAgreements(byTask: Map<string, Map<string, DecisionForAgreement>>, curators: string[]): PairAgreement[] {
  const pairs: PairAgreement[] = [];
  for (let i = 0; i < curators.length; i++) {
    for (let j = i + 1; j < curators.length; j++) {
      const a: Verdict[] = [];
      const b: Verdict[] = [];
      for (const perCurator of byTask.values()) {
        const da = perCurator.get(curators[i]);
        const db = perCurator.get(curators[j]);
        if (da && db) {
          a.push(da.verdict);
          b.push(db.verdict);
        }
      }
      if (a.length > 0) pairs.push({ curatorA: curators[i], curatorB: curators[j], ...cohenKappa(a, b) });
    }
  }
  return pairs;
}

export function computeAgreement(
  decisions: readonly DecisionForAgreement[],
  reasonsTaxonomy: readonly string[],
): AgreementReport {
  const byTask = latestDecisionsByTask(decisions);
  const shared = [...byTask.entries()].filter(([, perCurator]) => perCurator.size >= 2);
  const curators = [...new Set(decisions.map((d) => d.curatorId))].sort();

  const overall = fleissKappa(
    shared.map(([, perCurator]) => VERDICTS.map((v) => [...perCurator.values()].filter((d) => d.verdict === v).length)),
  );

  // per reason: did each curator cite it (yes / no)? agreement on that binary label
  const reasons = reasonsTaxonomy.map((reason) => {
    const rows = shared.map(([, perCurator]) => {
      const cited = [...perCurator.values()].filter((d) => d.reasons.includes(reason)).length;
      return [cited, perCurator.size - cited];
    });
    const timesUsed = [...byTask.values()].reduce(
      (s, m) => s + [...m.values()].filter((d) => d.reasons.includes(reason)).length,
      0,
    );
    return { reason, timesUsed, ...fleissKappa(rows) };
  });

  const disagreements = shared
    .filter(([, perCurator]) => new Set([...perCurator.values()].map((d) => d.verdict)).size > 1)
    .map(([taskId, perCurator]) => ({
      taskId,
      verdicts: [...perCurator.values()].map((d) => ({
        curatorId: d.curatorId,
        verdict: d.verdict,
        reasons: d.reasons,
      })),
    }));

  return {
    curators,
    tasksWithSeveralCurators: shared.length,
    overall,
    pairs: pairAgreements(byTask, curators),
    reasons,
    disagreements,
  };
}
