import { describe, expect, it } from "vitest";
import { explainFlip, FLIP_FACTORS, type FlipFactor, type RunInputs } from "@/lib/runs/explain-flip";

// Every combination of the four inputs, each the same, different or not recorded (3^4 = 81):
// the explanation must name exactly the differing inputs, call it flaky only when all four
// were recorded and equal, and never call it flaky while an input is unknown.
type State = "same" | "differs" | "notRecorded";
const STATES: State[] = ["same", "differs", "notRecorded"];

function combinations(): Record<FlipFactor, State>[] {
  return FLIP_FACTORS.reduce<Record<FlipFactor, State>[]>(
    (partials, factor) => partials.flatMap((partial) => STATES.map((state) => ({ ...partial, [factor]: state }))),
    [{} as Record<FlipFactor, State>],
  );
}

function runsFor(states: Record<FlipFactor, State>): [RunInputs, RunInputs] {
  const before = {} as RunInputs;
  const after = {} as RunInputs;
  for (const factor of FLIP_FACTORS) {
    before[factor] = states[factor] === "notRecorded" ? null : `${factor}-1`;
    after[factor] = states[factor] === "differs" ? `${factor}-2` : `${factor}-1`;
  }
  return [before, after];
}

describe("explainFlip over every combination of differences", () => {
  const all = combinations();

  it("covers all 81 combinations", () => expect(all).toHaveLength(81));

  it.each(
    all.map(
      (states) =>
        [
          Object.entries(states)
            .map(([f, s]) => `${f} ${s}`)
            .join(", "),
          states,
        ] as const,
    ),
  )("%s", (_, states) => {
    const [before, after] = runsFor(states);
    const explanation = explainFlip(before, after);
    const differing = FLIP_FACTORS.filter((f) => states[f] === "differs");
    const missing = FLIP_FACTORS.filter((f) => states[f] === "notRecorded");
    expect(explanation.changed).toEqual(differing);
    expect(explanation.notRecorded).toEqual(missing);
    if (differing.length) {
      expect(explanation.cause).toBe("changed");
      for (const factor of differing) expect(explanation.sentence.toLowerCase()).toContain(`${factor} changed`);
    } else if (missing.length) {
      expect(explanation.cause).toBe("unknown");
      expect(explanation.sentence).not.toMatch(/^Flaky/);
      for (const factor of missing) expect(explanation.sentence).toContain(factor);
    } else {
      expect(explanation.cause).toBe("flaky");
      expect(explanation.sentence).toMatch(/^Flaky/);
    }
  });

  it("reads as a curator would say it", () => {
    const base: RunInputs = { recipe: "r1", image: "i1", host: "h1", parser: "pytest@1" };
    expect(explainFlip(base, { ...base, recipe: "r2" }).sentence).toBe("Recipe changed");
    expect(explainFlip(base, { ...base, recipe: "r2", image: "i2" }).sentence).toBe("Recipe changed, image changed");
    expect(explainFlip(base, base).sentence).toBe("Flaky: same recipe, image, host and parser, different outcome");
    expect(explainFlip({ ...base, host: null, parser: null }, base).sentence).toBe(
      "No recorded input differs, but the host and parser were not recorded: flaky, or one of those changed",
    );
  });
});
