import { z } from "zod";

// A rubric is a list of questions. Pure code (no database), shared by the server, which
// validates every submission, and the annotation form, which renders the same questions.

const Key = z.string().regex(/^[a-z][a-z0-9_]{0,47}$/, "use lower-case letters, digits and _ (a letter first)");

const ShowIfSchema = z.object({
  /** the question this one depends on */
  question: Key,
  /** shown (and required, when required) only when that answer is one of these */
  equals: z.array(z.union([z.string(), z.number(), z.boolean()])).min(1),
});

const Base = {
  key: Key,
  prompt: z.string().min(1).max(500),
  help: z.string().max(2_000).optional(),
  required: z.boolean().default(true),
  showIf: ShowIfSchema.optional(),
};

const LevelSchema = z.object({ value: z.number().int(), label: z.string().min(1).max(300) });
const OptionSchema = z.object({ value: z.string().min(1).max(100), label: z.string().min(1).max(300) });

export const RubricQuestionSchema = z.discriminatedUnion("type", [
  /** an ordinal scale; "most severe" takes the highest level unless higherIsWorse is false */
  z.object({
    ...Base,
    type: z.literal("scale"),
    levels: z.array(LevelSchema).min(2).max(20),
    higherIsWorse: z.boolean().default(true),
  }),
  /** one option; options are listed from least to most severe */
  z.object({ ...Base, type: z.literal("single"), options: z.array(OptionSchema).min(2).max(50) }),
  z.object({ ...Base, type: z.literal("multiple"), options: z.array(OptionSchema).min(1).max(50) }),
  z.object({ ...Base, type: z.literal("yesno") }),
  z.object({ ...Base, type: z.literal("text"), minLength: z.number().int().min(0).max(5_000).default(0) }),
]);
export type RubricQuestion = z.output<typeof RubricQuestionSchema>;
export type QuestionType = RubricQuestion["type"];

export const RubricQuestionsSchema = z
  .array(RubricQuestionSchema)
  .min(1)
  .max(100)
  .superRefine((questions, ctx) => {
    const seen = new Set<string>();
    questions.forEach((question, index) => {
      if (seen.has(question.key))
        ctx.addIssue({
          code: "custom",
          path: [index, "key"],
          message: `the key "${question.key}" is used twice; give each question its own key`,
        });
      if (question.showIf && !seen.has(question.showIf.question))
        ctx.addIssue({
          code: "custom",
          path: [index, "showIf", "question"],
          message: `"${question.key}" depends on "${question.showIf.question}", which must be an earlier question`,
        });
      seen.add(question.key);
    });
  });

export type AnswerValue = number | string | boolean | string[];
export type Answers = Record<string, AnswerValue>;

export const DEFAULT_RUBRIC_NAME = "SWE-bench Verified";

/** A scale's levels, scored 0, 1, 2… in the order given. */
const scale = (...labels: string[]) => labels.map((label, value) => ({ value, label }));

/** The questions SWE-bench Verified's annotators answered for each sample. */
export const DEFAULT_RUBRIC_QUESTIONS: RubricQuestion[] = RubricQuestionsSchema.parse([
  {
    key: "underspecified",
    type: "scale",
    prompt: "How well-specified is the issue?",
    help: "Could an experienced engineer write a correct fix from the issue text alone?",
    levels: scale(
      "Well-specified: it is clear what a successful solution is",
      "Some blanks to fill in, but a sensible interpretation is clear",
      "Vague: room for ambiguity about what a solution is",
      "Almost impossible to know what to do without more information",
    ),
  },
  { key: "underspecified_reason", type: "text", prompt: "Why that score for the issue?", minLength: 20 },
  {
    key: "tests_valid",
    type: "scale",
    prompt: "How valid are the tests?",
    help: "Do the FAIL_TO_PASS tests accept every reasonable solution to the issue?",
    levels: scale(
      "The tests cover all reasonable solutions",
      "They cover most; some unusual solutions may fail",
      "They work, but reasonable solutions may be failed",
      "Too narrow, too broad, or test something else",
    ),
  },
  { key: "tests_reason", type: "text", prompt: "Why that score for the tests?", minLength: 20 },
  {
    key: "difficulty",
    type: "scale",
    prompt: "How long would an experienced engineer take to fix it?",
    levels: scale("Under 15 min", "15 min – 1 h", "1 – 4 h", "Over 4 h"),
  },
  { key: "major_issue", type: "yesno", prompt: "Is there any other major issue with this sample?" },
  {
    key: "major_issue_reason",
    type: "text",
    prompt: "What is the major issue?",
    minLength: 10,
    showIf: { question: "major_issue", equals: [true] },
  },
  {
    key: "confidence",
    type: "scale",
    prompt: "How confident are you in these answers?",
    higherIsWorse: false,
    levels: [1, 2, 3, 4, 5].map((value) => ({
      value,
      label: ["Not at all", "Slightly", "Moderately", "Quite", "Fully"][value - 1],
    })),
  },
]);

/** Whether a question applies, given the answers so far (a conditional one only when its condition holds). */
export function isActive(question: RubricQuestion, answers: Answers): boolean {
  if (!question.showIf) return true;
  const answer = answers[question.showIf.question];
  return answer !== undefined && question.showIf.equals.some((value) => value === answer);
}

export type AnswerError = { field: string; detail: string };

function isEmpty(value: AnswerValue | undefined): boolean {
  return value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
}

function checkAnswer(question: RubricQuestion, value: AnswerValue): string | null {
  switch (question.type) {
    case "scale":
      return typeof value === "number" && question.levels.some((l) => l.value === value)
        ? null
        : `pick one of the levels ${question.levels.map((l) => l.value).join(", ")}`;
    case "single":
      return typeof value === "string" && question.options.some((o) => o.value === value)
        ? null
        : `pick one of: ${question.options.map((o) => o.value).join(", ")}`;
    case "multiple":
      return Array.isArray(value) && value.every((v) => question.options.some((o) => o.value === v))
        ? null
        : `pick from: ${question.options.map((o) => o.value).join(", ")}`;
    case "yesno":
      return typeof value === "boolean" ? null : "answer yes or no";
    case "text":
      if (typeof value !== "string") return "write the answer as text";
      return value.trim().length >= question.minLength
        ? null
        : `write at least ${question.minLength} characters (${value.trim().length} so far)`;
  }
}

/**
 * The answers that count (inactive conditional questions and unknown keys left out) and a
 * sentence per problem, naming the question: a required answer missing, a value off the scale,
 * a reason too short.
 */
export function validateAnswers(
  questions: readonly RubricQuestion[],
  raw: Record<string, unknown>,
): { answers: Answers; errors: AnswerError[] } {
  const answers: Answers = {};
  const errors: AnswerError[] = [];
  for (const question of questions) {
    if (!isActive(question, answers)) continue;
    const value = raw[question.key] as AnswerValue | undefined;
    if (isEmpty(value)) {
      if (question.required)
        errors.push({ field: `answers.${question.key}`, detail: `"${question.prompt}" needs an answer` });
      continue;
    }
    const problem = checkAnswer(question, value as AnswerValue);
    if (problem) errors.push({ field: `answers.${question.key}`, detail: `"${question.prompt}": ${problem}` });
    else answers[question.key] = typeof value === "string" ? value.trim() : (value as AnswerValue);
  }
  return { answers, errors };
}

export function parseQuestions(json: unknown): RubricQuestion[] {
  return RubricQuestionsSchema.parse(json);
}
