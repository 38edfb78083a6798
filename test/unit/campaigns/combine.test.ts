import { describe, expect, it } from "vitest";
import {
  applyDropRule,
  combineAnswers,
  combineQuestion,
  DEFAULT_DROP_RULE,
  dropRuleProblems,
} from "../../../lib/campaigns/combine";
import {
  DEFAULT_RUBRIC_QUESTIONS,
  RubricQuestionsSchema,
  validateAnswers,
  type RubricQuestion,
} from "../../../lib/campaigns/rubric";

const q = (key: string) => DEFAULT_RUBRIC_QUESTIONS.find((question) => question.key === key)!;
const single: RubricQuestion = {
  key: "cause",
  type: "single",
  prompt: "Cause",
  required: true,
  options: [
    { value: "none", label: "None" },
    { value: "env", label: "Environment" },
    { value: "leak", label: "Solution leaked" },
  ],
};
const multiple: RubricQuestion = {
  key: "flags",
  type: "multiple",
  prompt: "Flags",
  required: false,
  options: [
    { value: "a", label: "A" },
    { value: "b", label: "B" },
    { value: "c", label: "C" },
  ],
};

describe("combination rules", () => {
  it("most severe takes the worst answer: the highest score, the lowest confidence, any yes, the last option, every option", () => {
    expect(combineQuestion(q("underspecified"), [0, 2, 1], "MOST_SEVERE")).toBe(2);
    expect(combineQuestion(q("confidence"), [5, 2, 4], "MOST_SEVERE")).toBe(2);
    expect(combineQuestion(q("major_issue"), [false, true, false], "MOST_SEVERE")).toBe(true);
    expect(combineQuestion(single, ["none", "leak", "env"], "MOST_SEVERE")).toBe("leak");
    expect(combineQuestion(multiple, [["a"], ["c"], []], "MOST_SEVERE")).toEqual(["a", "c"]);
  });

  it("majority takes the most frequent answer, a tie going to the more severe side", () => {
    expect(combineQuestion(q("underspecified"), [1, 1, 3], "MAJORITY")).toBe(1);
    expect(combineQuestion(q("underspecified"), [0, 1, 2], "MAJORITY")).toBe(2);
    expect(combineQuestion(q("confidence"), [5, 2], "MAJORITY")).toBe(2);
    expect(combineQuestion(q("major_issue"), [true, false, false], "MAJORITY")).toBe(false);
    expect(combineQuestion(q("major_issue"), [true, false], "MAJORITY")).toBe(true);
    expect(combineQuestion(single, ["env", "none", "none"], "MAJORITY")).toBe("none");
    expect(combineQuestion(multiple, [["a", "b"], ["a"], ["c"]], "MAJORITY")).toEqual(["a"]);
  });

  it("mean averages a scale to two decimals and treats yes/no as a majority", () => {
    expect(combineQuestion(q("tests_valid"), [1, 1, 3], "MEAN")).toBe(1.67);
    expect(combineQuestion(q("difficulty"), [0, 1], "MEAN")).toBe(0.5);
    expect(combineQuestion(q("major_issue"), [true, false, false], "MEAN")).toBe(false);
  });

  it("does not combine free text, and leaves a question nobody answered empty", () => {
    const combined = combineAnswers(
      DEFAULT_RUBRIC_QUESTIONS,
      [{ underspecified: 1, underspecified_reason: "x".repeat(20) }],
      "MOST_SEVERE",
    );
    expect(combined.underspecified_reason).toBeNull();
    expect(combined.major_issue_reason).toBeNull();
    expect(combined.underspecified).toBe(1);
  });
});

describe("the drop rule", () => {
  it("is SWE-bench Verified's by default: a score of 2 or more, or a major issue", () => {
    expect(applyDropRule(DEFAULT_DROP_RULE, { underspecified: 1, tests_valid: 1, major_issue: false })).toEqual({
      dropped: false,
      reasons: [],
    });
    expect(applyDropRule(DEFAULT_DROP_RULE, { underspecified: 2, tests_valid: 3, major_issue: false })).toEqual({
      dropped: true,
      reasons: ["underspecified 2 ≥ 2", "tests_valid 3 ≥ 2"],
    });
    expect(applyDropRule(DEFAULT_DROP_RULE, { underspecified: 0, tests_valid: 0, major_issue: true })).toEqual({
      dropped: true,
      reasons: ["major_issue = true"],
    });
    // a mean just under the bar keeps the task
    expect(applyDropRule(DEFAULT_DROP_RULE, { underspecified: 1.99, tests_valid: 0, major_issue: false }).dropped).toBe(
      false,
    );
  });

  it("must fit the rubric, with a sentence for each condition that does not", () => {
    expect(dropRuleProblems(DEFAULT_DROP_RULE, DEFAULT_RUBRIC_QUESTIONS)).toEqual([]);
    expect(
      dropRuleProblems(
        {
          any: [
            { question: "nope", atLeast: 1 },
            { question: "major_issue", atLeast: 1 },
          ],
        },
        DEFAULT_RUBRIC_QUESTIONS,
      ),
    ).toEqual([
      'drop condition 1 names "nope", which the rubric does not have',
      'drop condition 2: "atLeast" needs a scale question, and "major_issue" is yesno',
    ]);
  });
});

describe("rubric questions", () => {
  it("asks the conditional question only when its condition holds", () => {
    const base = {
      underspecified: 0,
      underspecified_reason: "Clear from the traceback given.",
      tests_valid: 0,
      tests_reason: "The test asserts the documented result.",
      difficulty: 1,
      confidence: 5,
    };
    expect(
      validateAnswers(DEFAULT_RUBRIC_QUESTIONS, { ...base, major_issue: false, major_issue_reason: "ignored" }),
    ).toEqual({ answers: { ...base, major_issue: false }, errors: [] });
    expect(validateAnswers(DEFAULT_RUBRIC_QUESTIONS, { ...base, major_issue: true }).errors).toEqual([
      { field: "answers.major_issue_reason", detail: '"What is the major issue?" needs an answer' },
    ]);
  });

  it("refuses a rubric whose condition points at a later or missing question, or repeats a key", () => {
    const result = RubricQuestionsSchema.safeParse([
      { key: "why", type: "text", prompt: "Why?", showIf: { question: "broken", equals: [true] } },
      { key: "broken", type: "yesno", prompt: "Broken?" },
      { key: "broken", type: "yesno", prompt: "Again?" },
    ]);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message)).toEqual([
      '"why" depends on "broken", which must be an earlier question',
      'the key "broken" is used twice; give each question its own key',
    ]);
  });
});
