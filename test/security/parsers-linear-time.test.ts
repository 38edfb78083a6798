import { describe, expect, it } from "vitest";
import { parseTestLog } from "@/lib/validation/parsers/log-parsers";
import { ATTACK_FLOODS, ATTACK_LINES, everyParser } from "../helpers/attack-logs";

// Attack: a candidate's conftest.py prints one enormous line (or a flood of lines) shaped so
// that a backtracking regex in a log parser takes quadratic or cubic time, stalling a
// worker for hours. Each parser reads a 1 MB line of each shape and 200,000 lines of each
// flood, and must read from it what it reads from the same shape at a small size:
// a parser that truncates, gives up or invents tests as the input grows fails here, and one
// that backtracks does not finish within the test's deadline (quadratic work on 1 MB is
// hours). How the time grows with the input is measured by `npm run bench:parsers`, not
// asserted here: a test never asserts speed.

const MB = 1024 * 1024;

describe("log parsers read a huge attack log as they read a small one (attack: a 1 MB line or a flood of lines from conftest.py)", () => {
  it.each(ATTACK_LINES)(
    "one 1 MB line: %s",
    (_shape, make) => {
      const [small, large] = [make(1024), make(MB)];
      for (const [name, parse] of everyParser()) expect(parse(large), `${name} on a 1 MB line`).toEqual(parse(small));
    },
    300_000,
  );

  it.each(ATTACK_FLOODS)(
    "200,000 lines: %s",
    (_shape, make) => {
      const [small, large] = [make(1000), make(200_000)];
      for (const [name, parse] of everyParser()) expect(parse(large), `${name} on 200,000 lines`).toEqual(parse(small));
    },
    300_000,
  );

  it("reads a status from the attack shapes that carry one, so the cases above do not pass by reading nothing", () => {
    const shapes = [
      ...ATTACK_LINES.map(([shape, make]) => [shape, make(1024)]),
      ...ATTACK_FLOODS.map(([shape, make]) => [shape, make(1000)]),
    ];
    const read = shapes
      .filter(([, log]) => everyParser().some(([, parse]) => parse(log).length > 0))
      .map(([shape]) => shape);
    expect(read).toEqual(expect.arrayContaining(["status word then spaces", "brackets", "ok lines", "status lines"]));
  });

  it("still reads the tests around a 1 MB line", () => {
    const log = [
      "PASSED tests/a.py::test_before",
      `PASSED ${"x".repeat(MB)}`,
      "FAILED tests/a.py::test_after - boom",
    ].join("\n");
    const results = parseTestLog(log, "pytest").results;
    expect(results.get("tests/a.py::test_before")).toBe("PASSED");
    expect(results.get("tests/a.py::test_after")).toBe("FAILED");
  });
});
