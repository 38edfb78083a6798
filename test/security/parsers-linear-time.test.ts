import { describe, expect, it } from "vitest";
import { parseHarnessLog } from "@/lib/validation/grade-swe-bench";
import { detectLogParser, logParserNames, parseTestLog } from "@/lib/validation/parsers/log-parsers";

// Attack: a candidate's conftest.py prints one enormous line (or a flood of lines) shaped so
// that a backtracking regex in a log parser takes quadratic or cubic time, stalling a
// worker for hours. Every parser must stay linear. The check compares each parser's time on
// an input with its time on an input 8 times smaller, measured in this run: linear work
// grows about 8 times, quadratic work 64 times; the bound, 32, leaves room for noise. No absolute time is asserted.

const MB = 1024 * 1024;

/** Line shapes that made the old regexes (or SWE-bench's own) backtrack: one long line of each. */
const ATTACK_LINES: Array<[string, (size: number) => string]> = [
  ["status word then spaces", (n) => `PASSED a${" ".repeat(n)}b`],
  ["pytest id with colons and spaces", (n) => `x::${"::a ".repeat(n / 4)}`],
  ["spaces then a status-like tail", (n) => `a${" ".repeat(n)}:x PASSED y`],
  ["dots separators", (n) => `a${" ... ".repeat(n / 5)}`],
  ["sympy header of underscores", (n) => `${"_".repeat(n / 2)} ${".py:".repeat(n / 8)}`],
  ["test_ then spaces", (n) => `test_${" ".repeat(n)}x`],
  ["django interrupted verdict without its ok", (n) => `${"t ... Testing against Django installed in ".repeat(n / 42)}`],
  ["colour code openers", (n) => `PASSED ${"[1".repeat(n / 2)}`],
  ["pytest summary banner", (n) => `= ${"passed ".repeat(n / 7)}`],
  ["brackets", (n) => `PASSED a[${"[".repeat(n)}`],
];

/** Many short lines instead of one long one. */
const ATTACK_FLOODS: Array<[string, (lines: number) => string]> = [
  ["ok lines", (k) => "t (m.C) ...\nok\n".repeat(k / 2)],
  ["unterminated django verdicts", (k) => "t ... Testing against Django installed in x\n".repeat(k)],
  ["status lines", (k) => "FAILED a::b - c\n".repeat(k)],
];

const parsers = () => logParserNames().map((name) => [name, (log: string) => parseTestLog(log, name).results.size] as const);
const everything = (log: string) => {
  detectLogParser(log);
  return parseHarnessLog(log).statuses.size;
};

function fastest(run: () => unknown, times = 2): number {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** Time on the big input over time on an 8× smaller one; a floor keeps timer noise out of tiny runs. */
function growth(parse: (log: string) => unknown, make: (size: number) => string, big: number): number {
  const small = make(big / 8);
  const large = make(big);
  return fastest(() => parse(large)) / Math.max(fastest(() => parse(small)), 5);
}

describe("log parsers take linear time (attack: a 1 MB line or a million lines printed by a candidate's conftest.py)", () => {
  it.each(ATTACK_LINES)("one long line: %s", (_shape, make) => {
    for (const [name, parse] of [...parsers(), ["detect + grade", everything] as const]) {
      const ratio = growth(parse, make, MB / 4);
      expect(ratio, `${name} grew ${ratio.toFixed(1)}× for 8× the input`).toBeLessThan(32);
    }
  }, 120_000);

  it.each(ATTACK_FLOODS)("many lines: %s", (_shape, make) => {
    for (const [name, parse] of [...parsers(), ["detect + grade", everything] as const]) {
      const ratio = growth(parse, make, 128_000);
      expect(ratio, `${name} grew ${ratio.toFixed(1)}× for 8× the input`).toBeLessThan(32);
    }
  }, 120_000);

  it("parses a 1 MB line of each shape and a million lines of each flood", () => {
    for (const [, parse] of parsers()) {
      for (const [, make] of ATTACK_LINES) expect(parse(make(MB))).toBeGreaterThanOrEqual(0);
      for (const [, make] of ATTACK_FLOODS) expect(parse(make(1_000_000))).toBeGreaterThanOrEqual(0);
    }
  }, 600_000);

  it("still reads the tests around a 1 MB line", () => {
    const log = ["PASSED tests/a.py::test_before", `PASSED ${"x".repeat(MB)}`, "FAILED tests/a.py::test_after - boom"].join("\n");
    const results = parseTestLog(log, "pytest").results;
    expect(results.get("tests/a.py::test_before")).toBe("PASSED");
    expect(results.get("tests/a.py::test_after")).toBe("FAILED");
  });
});
