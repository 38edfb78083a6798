import { cohenKappa, weightedCohenKappa, type CohenResult } from "../metrics/kappa";
import { krippendorffAlpha, type AlphaLevel } from "../metrics/krippendorff-alpha";
import type { AnswerValue, Answers, RubricQuestion } from "./rubric";

// Agreement per question of a campaign: Krippendorff's alpha over all annotators (ordinal for
// scales, nominal for choices), kappa per annotator pair (quadratic-weighted for scales), each
// with a bootstrap confidence interval over tasks; the answers' distribution; and the tasks
// the annotators disagreed on most. Pure: lib/campaigns/report.ts feeds it the labels.

export type SubmittedLabel = {
  taskId: string;
  annotatorId: string;
  answers: Answers;
  openedAt: Date;
  submittedAt: Date;
};
export type Interval = [number, number] | null;

const BOOTSTRAP_SAMPLES = 1_000;

/** A small seeded generator (mulberry32), so a report's intervals are the same on every load. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The 2.5th and 97.5th percentiles of a statistic over resamples (with replacement) of the items. */
export function bootstrapInterval<T>(
  items: readonly T[],
  statistic: (sample: T[]) => number | null,
  samples = BOOTSTRAP_SAMPLES,
  seed = 1,
): Interval {
  if (items.length < 2) return null;
  const random = seededRandom(seed);
  const values: number[] = [];
  for (let s = 0; s < samples; s++) {
    const sample = Array.from({ length: items.length }, () => items[Math.floor(random() * items.length)]);
    const value = statistic(sample);
    if (value !== null && Number.isFinite(value)) values.push(value);
  }
  if (values.length < samples / 2) return null;
  values.sort((a, b) => a - b);
  const at = (q: number) => values[Math.min(values.length - 1, Math.max(0, Math.round(q * (values.length - 1))))];
  return [at(0.025), at(0.975)];
}

const AGREEABLE = new Set(["scale", "single", "yesno"]);
const alphaLevel = (question: RubricQuestion): AlphaLevel => (question.type === "scale" ? "ordinal" : "nominal");
const nominal = (value: AnswerValue) => String(value);

export type PairAgreement = CohenResult & {
  annotatorA: string;
  annotatorB: string;
  weights: "quadratic" | "none";
  interval: Interval;
};
export type QuestionAgreement = {
  key: string;
  prompt: string;
  type: RubricQuestion["type"];
  level: AlphaLevel | null;
  alpha: number | null;
  alphaInterval: Interval;
  units: number;
  pairs: PairAgreement[];
  distribution: { value: string; label: string; count: number }[];
};

function pairKappa(question: RubricQuestion, a: AnswerValue[], b: AnswerValue[]): CohenResult {
  if (question.type === "scale")
    return weightedCohenKappa(
      a as number[],
      b as number[],
      "quadratic",
      question.levels.map((l) => l.value),
    );
  return cohenKappa(a.map(nominal), b.map(nominal));
}

function distribution(question: RubricQuestion, values: AnswerValue[]): QuestionAgreement["distribution"] {
  const count = (match: (v: AnswerValue) => boolean) => values.filter(match).length;
  switch (question.type) {
    case "scale":
      return question.levels.map((l) => ({
        value: String(l.value),
        label: l.label,
        count: count((v) => v === l.value),
      }));
    case "single":
      return question.options.map((o) => ({ value: o.value, label: o.label, count: count((v) => v === o.value) }));
    case "multiple":
      return question.options.map((o) => ({
        value: o.value,
        label: o.label,
        count: count((v) => Array.isArray(v) && v.includes(o.value)),
      }));
    case "yesno":
      return [
        { value: "true", label: "Yes", count: count((v) => v === true) },
        { value: "false", label: "No", count: count((v) => v === false) },
      ];
    case "text":
      return [];
  }
}

/** Each task's answers to one question, by annotator. */
function answersByTask(
  question: RubricQuestion,
  labels: readonly SubmittedLabel[],
): Map<string, Map<string, AnswerValue>> {
  const byTask = new Map<string, Map<string, AnswerValue>>();
  for (const label of labels) {
    const value = label.answers[question.key];
    if (value === undefined) continue;
    const perAnnotator = byTask.get(label.taskId) ?? new Map<string, AnswerValue>();
    perAnnotator.set(label.annotatorId, value);
    byTask.set(label.taskId, perAnnotator);
  }
  return byTask;
}

export function questionAgreement(
  question: RubricQuestion,
  labels: readonly SubmittedLabel[],
  annotators: readonly string[],
): QuestionAgreement {
  const byTask = answersByTask(question, labels);
  const base = {
    key: question.key,
    prompt: question.prompt,
    type: question.type,
    distribution: distribution(
      question,
      labels.map((l) => l.answers[question.key]).filter((v) => v !== undefined),
    ),
  };
  if (!AGREEABLE.has(question.type))
    return { ...base, level: null, alpha: null, alphaInterval: null, units: byTask.size, pairs: [] };
  const level = alphaLevel(question);
  const toValue = (v: AnswerValue) => (question.type === "scale" ? (v as number) : nominal(v));
  const units = [...byTask.values()].map((m) => [...m.values()].map(toValue));
  const alpha = krippendorffAlpha(units, level);
  const alphaInterval = bootstrapInterval(units, (sample) => krippendorffAlpha(sample, level).alpha);
  const pairs: PairAgreement[] = [];
  for (let i = 0; i < annotators.length; i++) {
    for (let j = i + 1; j < annotators.length; j++) {
      const shared = [...byTask.values()]
        .filter((m) => m.has(annotators[i]) && m.has(annotators[j]))
        .map((m) => [m.get(annotators[i])!, m.get(annotators[j])!] as const);
      if (shared.length === 0) continue;
      const kappaOf = (sample: (readonly [AnswerValue, AnswerValue])[]) =>
        pairKappa(
          question,
          sample.map((p) => p[0]),
          sample.map((p) => p[1]),
        );
      pairs.push({
        annotatorA: annotators[i],
        annotatorB: annotators[j],
        weights: question.type === "scale" ? "quadratic" : "none",
        ...kappaOf(shared),
        interval: bootstrapInterval(shared, (sample) => kappaOf(sample).kappa),
      });
    }
  }
  return { ...base, level, alpha: alpha.alpha, alphaInterval, units: alpha.pairable, pairs };
}

/**
 * How far apart a task's annotators were: per scale question the range of answers as a share
 * of the scale, per choice question 1 when they differed, summed over the questions.
 */
export function disagreementSpread(
  questions: readonly RubricQuestion[],
  answers: readonly Answers[],
): { spread: number; questions: string[] } {
  let spread = 0;
  const disagreeing: string[] = [];
  for (const question of questions) {
    if (!AGREEABLE.has(question.type)) continue;
    const values = answers.map((a) => a[question.key]).filter((v) => v !== undefined);
    if (values.length < 2) continue;
    let part = 0;
    if (question.type === "scale") {
      const levels = question.levels.map((l) => l.value);
      const range = Math.max(...levels) - Math.min(...levels) || 1;
      part = (Math.max(...(values as number[])) - Math.min(...(values as number[]))) / range;
    } else part = new Set(values.map(nominal)).size > 1 ? 1 : 0;
    if (part > 0) disagreeing.push(question.key);
    spread += part;
  }
  return { spread: Math.round(spread * 1000) / 1000, questions: disagreeing };
}

/** Of the pairs of answers an annotator shares with others on the same task, the share that are equal. */
export function agreementWithOthers(
  questions: readonly RubricQuestion[],
  labels: readonly SubmittedLabel[],
  annotatorId: string,
): { rate: number | null; comparisons: number } {
  const byTask = new Map<string, SubmittedLabel[]>();
  for (const label of labels) byTask.set(label.taskId, [...(byTask.get(label.taskId) ?? []), label]);
  let equal = 0;
  let comparisons = 0;
  for (const taskLabels of byTask.values()) {
    const own = taskLabels.find((l) => l.annotatorId === annotatorId);
    if (!own) continue;
    for (const other of taskLabels) {
      if (other === own) continue;
      for (const question of questions) {
        if (!AGREEABLE.has(question.type)) continue;
        const [a, b] = [own.answers[question.key], other.answers[question.key]];
        if (a === undefined || b === undefined) continue;
        comparisons++;
        if (nominal(a) === nominal(b)) equal++;
      }
    }
  }
  return { rate: comparisons ? equal / comparisons : null, comparisons };
}

/** Of the reference answers an annotator was checked against, the share they matched (free text is not scored). */
export function goldAccuracy(
  questions: readonly RubricQuestion[],
  pairs: readonly { answers: Answers; reference: Answers }[],
): { accuracy: number | null; checked: number } {
  let matched = 0;
  let checked = 0;
  for (const { answers, reference } of pairs) {
    for (const question of questions) {
      if (question.type === "text" || reference[question.key] === undefined) continue;
      checked++;
      if (JSON.stringify(answers[question.key]) === JSON.stringify(reference[question.key])) matched++;
    }
  }
  return { accuracy: checked ? matched / checked : null, checked };
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * How much one task's annotators agreed: of the pairs of answers they gave to the same
 * agreeable question, the share that are equal (1 = all agreed). Null under two labels:
 * one annotator cannot agree with anyone, so an export asking for agreement leaves it out.
 */
export function taskAgreement(questions: readonly RubricQuestion[], answers: readonly Answers[]): number | null {
  if (answers.length < 2) return null;
  let equal = 0;
  let pairs = 0;
  for (const question of questions) {
    if (!AGREEABLE.has(question.type)) continue;
    const values = answers
      .map((a) => a[question.key])
      .filter((v) => v !== undefined)
      .map(nominal);
    for (let i = 0; i < values.length; i++) {
      for (let j = i + 1; j < values.length; j++) {
        pairs++;
        if (values[i] === values[j]) equal++;
      }
    }
  }
  return pairs ? equal / pairs : null;
}
