import { parseHarnessLog } from "@/lib/validation/grade-swe-bench";
import { detectLogParser, logParserNames, parseTestLog } from "@/lib/validation/parsers/log-parsers";

// Logs a candidate's conftest.py could print to stall a worker: shapes that made the old log
// parsers' regexes (or SWE-bench's own) backtrack. Shared by the attack test
// (test/security/parsers-linear-time.test.ts) and its timing, `npm run bench:parsers`.

/** One long line of each shape, `size` characters or so. */
export const ATTACK_LINES: Array<[string, (size: number) => string]> = [
  ["status word then spaces", (n) => `PASSED a${" ".repeat(n)}b`],
  ["pytest id with colons and spaces", (n) => `x::${"::a ".repeat(n / 4)}`],
  ["spaces then a status-like tail", (n) => `a${" ".repeat(n)}:x PASSED y`],
  ["dots separators", (n) => `a${" ... ".repeat(n / 5)}`],
  ["sympy header of underscores", (n) => `${"_".repeat(n / 2)} ${".py:".repeat(n / 8)}`],
  ["test_ then spaces", (n) => `test_${" ".repeat(n)}x`],
  [
    "django interrupted verdict without its ok",
    (n) => `${"t ... Testing against Django installed in ".repeat(n / 42)}`,
  ],
  ["colour code openers", (n) => `PASSED ${"[1".repeat(n / 2)}`],
  ["pytest summary banner", (n) => `= ${"passed ".repeat(n / 7)}`],
  ["brackets", (n) => `PASSED a[${"[".repeat(n)}`],
];

/** Many short lines instead of one long one: `lines` of them. */
export const ATTACK_FLOODS: Array<[string, (lines: number) => string]> = [
  ["ok lines", (k) => "t (m.C) ...\nok\n".repeat(k / 2)],
  ["unterminated django verdicts", (k) => "t ... Testing against Django installed in x\n".repeat(k)],
  ["status lines", (k) => "FAILED a::b - c\n".repeat(k)],
];

/** Every log parser by name, and the harness's own detect-then-grade path, each giving the statuses it read. */
export function everyParser(): Array<readonly [string, (log: string) => string[]]> {
  const statuses = (results: Map<string, string>) => [...results.values()].sort();
  return [
    ...logParserNames().map((name) => [name, (log: string) => statuses(parseTestLog(log, name).results)] as const),
    [
      "detect + grade",
      (log: string) => {
        detectLogParser(log);
        return statuses(parseHarnessLog(log).statuses);
      },
    ] as const,
  ];
}
