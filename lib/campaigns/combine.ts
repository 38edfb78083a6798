import { z } from "zod";
import type { AnswerValue, Answers, RubricQuestion } from "./rubric";

// How N annotators' answers become one answer per question, and whether the task is dropped.
// Pure functions: the campaign outcome, the export and the unit tests all call these.

export const COMBINATIONS = ["MOST_SEVERE", "MAJORITY", "MEAN"] as const;
export type Combination = (typeof COMBINATIONS)[number];

/** A combined answer: a number for scales (a mean may be fractional), a boolean, an option, options, or null (free text, or nobody answered). */
export type CombinedValue = number | boolean | string | string[] | null;
export type CombinedAnswers = Record<string, CombinedValue>;

/** The most frequent value; a tie goes to the most severe of the tied values (rank: higher is more severe). */
function mode<T>(values: readonly T[], rank: (value: T) => number): T {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best = values[0];
  for (const [value, count] of counts) {
    const bestCount = counts.get(best)!;
    if (count > bestCount || (count === bestCount && rank(value) > rank(best))) best = value;
  }
  return best;
}

function combineScale(
  question: Extract<RubricQuestion, { type: "scale" }>,
  values: number[],
  rule: Combination,
): number {
  const severity = (v: number) => (question.higherIsWorse ? v : -v);
  if (rule === "MEAN") return Math.round((values.reduce((s, v) => s + v, 0) / values.length) * 100) / 100;
  if (rule === "MAJORITY") return mode(values, severity);
  return values.reduce((worst, v) => (severity(v) > severity(worst) ? v : worst));
}

function combineYesNo(values: boolean[], rule: Combination): boolean {
  if (rule === "MOST_SEVERE") return values.some(Boolean);
  // majority and mean agree for yes/no: yes when at least half said yes (a tie is the severe side)
  return values.filter(Boolean).length * 2 >= values.length;
}

function combineSingle(
  question: Extract<RubricQuestion, { type: "single" }>,
  values: string[],
  rule: Combination,
): string {
  const rank = (v: string) => question.options.findIndex((o) => o.value === v);
  if (rule === "MOST_SEVERE") return values.reduce((worst, v) => (rank(v) > rank(worst) ? v : worst));
  return mode(values, rank);
}

function combineMultiple(
  question: Extract<RubricQuestion, { type: "multiple" }>,
  values: string[][],
  rule: Combination,
): string[] {
  const chosen = (option: string) => values.filter((v) => v.includes(option)).length;
  return question.options
    .map((o) => o.value)
    .filter((option) =>
      rule === "MOST_SEVERE" ? chosen(option) > 0 : chosen(option) * 2 >= values.length && chosen(option) > 0,
    );
}

/** One question's combined answer over the labels that answered it. */
export function combineQuestion(
  question: RubricQuestion,
  answers: readonly (AnswerValue | undefined)[],
  rule: Combination,
): CombinedValue {
  const given = answers.filter((a): a is AnswerValue => a !== undefined);
  if (given.length === 0) return null;
  switch (question.type) {
    case "scale":
      return combineScale(question, given as number[], rule);
    case "yesno":
      return combineYesNo(given as boolean[], rule);
    case "single":
      return combineSingle(question, given as string[], rule);
    case "multiple":
      return combineMultiple(question, given as string[][], rule);
    case "text":
      return null;
  }
}

export function combineAnswers(
  questions: readonly RubricQuestion[],
  labels: readonly Answers[],
  rule: Combination,
): CombinedAnswers {
  return Object.fromEntries(
    questions.map((q) => [
      q.key,
      combineQuestion(
        q,
        labels.map((l) => l[q.key]),
        rule,
      ),
    ]),
  );
}

// ─── the drop rule ───

const DropConditionSchema = z
  .object({
    question: z.string().min(1),
    /** drop when the combined scale answer is at least this */
    atLeast: z.number().optional(),
    /** drop when the combined answer equals this (a yes, an option) */
    equals: z.union([z.boolean(), z.string(), z.number()]).optional(),
  })
  .refine((c) => (c.atLeast === undefined) !== (c.equals === undefined), { message: "give either atLeast or equals" });

export const DropRuleSchema = z.object({ any: z.array(DropConditionSchema).max(50) });
export type DropRule = z.infer<typeof DropRuleSchema>;

/** SWE-bench Verified's rule: dropped when either score is 2 or more, or a major issue is flagged. */
export const DEFAULT_DROP_RULE: DropRule = {
  any: [
    { question: "underspecified", atLeast: 2 },
    { question: "tests_valid", atLeast: 2 },
    { question: "major_issue", equals: true },
  ],
};

/** The drop rule's questions must exist, and an atLeast must point at a scale. */
export function dropRuleProblems(rule: DropRule, questions: readonly RubricQuestion[]): string[] {
  return rule.any.flatMap((condition, index) => {
    const question = questions.find((q) => q.key === condition.question);
    if (!question) return [`drop condition ${index + 1} names "${condition.question}", which the rubric does not have`];
    if (condition.atLeast !== undefined && question.type !== "scale")
      return [
        `drop condition ${index + 1}: "atLeast" needs a scale question, and "${question.key}" is ${question.type}`,
      ];
    return [];
  });
}

export type Outcome = { dropped: boolean; reasons: string[] };

/** Whether the combined answers drop the task, with the conditions that did it. */
export function applyDropRule(rule: DropRule, combined: CombinedAnswers): Outcome {
  const reasons = rule.any.flatMap((condition) => {
    const value = combined[condition.question];
    if (value === null || value === undefined) return [];
    if (condition.atLeast !== undefined)
      return typeof value === "number" && value >= condition.atLeast
        ? [`${condition.question} ${value} ≥ ${condition.atLeast}`]
        : [];
    const hit = Array.isArray(value) ? value.includes(String(condition.equals)) : value === condition.equals;
    return hit ? [`${condition.question} = ${String(condition.equals)}`] : [];
  });
  return { dropped: reasons.length > 0, reasons };
}
