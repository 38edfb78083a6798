/**
 * Why one test's status differs between two runs of the same control kind, from what the
 * runs' results depended on: their recipe revision, image, Docker engine and log parser.
 */

export const FLIP_FACTORS = ["recipe", "image", "host", "parser"] as const;
export type FlipFactor = (typeof FLIP_FACTORS)[number];

/** One run's inputs by factor; null where the run did not record it (runs before it was recorded). */
export type RunInputs = Record<FlipFactor, string | null>;

export type FlipExplanation = {
  /** changed: some recorded input differs; flaky: every input recorded and equal; unknown: none of the recorded ones differs, some are missing */
  cause: "changed" | "flaky" | "unknown";
  /** the inputs that differ, in FLIP_FACTORS order */
  changed: FlipFactor[];
  /** the inputs either run did not record */
  notRecorded: FlipFactor[];
  sentence: string;
};

const listed = (words: string[]) =>
  words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function sentenceFor(changed: FlipFactor[], notRecorded: FlipFactor[]): string {
  if (changed.length) return capitalized(changed.map((factor) => `${factor} changed`).join(", "));
  if (!notRecorded.length) return "Flaky: same recipe, image, host and parser, different outcome";
  return `No recorded input differs, but the ${listed(notRecorded)} ${notRecorded.length > 1 ? "were" : "was"} not recorded: flaky, or one of those changed`;
}

/** Every difference is listed: a new recipe often brings a new image, and both are worth knowing. */
export function explainFlip(before: RunInputs, after: RunInputs): FlipExplanation {
  const notRecorded = FLIP_FACTORS.filter((factor) => before[factor] === null || after[factor] === null);
  const changed = FLIP_FACTORS.filter((factor) => !notRecorded.includes(factor) && before[factor] !== after[factor]);
  const cause = changed.length ? "changed" : notRecorded.length ? "unknown" : "flaky";
  return { cause, changed, notRecorded, sentence: sentenceFor(changed, notRecorded) };
}
