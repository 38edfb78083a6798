// npm run bench:parsers — how each log parser's time grows with an attack log's size.
//
// For every attack shape (test/helpers/attack-logs.ts) and every parser, the time on an input
// over the time on one 8 times smaller, measured in this run: linear work grows about 8
// times, quadratic work 64 times. Prints each ratio and exits 1 when one is 32 or more (the
// bound leaves room for noise; run it on a quiet machine). No absolute time is judged. The
// test suite checks what the parsers read from these logs (test/security/parsers-linear-time.test.ts).
// Usage: npm run bench:parsers

import { ATTACK_FLOODS, ATTACK_LINES, everyParser } from "../helpers/attack-logs";

const MB = 1024 * 1024;
const BOUND = 32;

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
  const [small, large] = [make(big / 8), make(big)];
  return (
    fastest(() => parse(large)) /
    Math.max(
      fastest(() => parse(small)),
      5,
    )
  );
}

const cases = [
  ...ATTACK_LINES.map(([shape, make]) => [`one long line: ${shape}`, make, MB / 4] as const),
  ...ATTACK_FLOODS.map(([shape, make]) => [`many lines: ${shape}`, make, 128_000] as const),
];
let worst = 0;
for (const [shape, make, size] of cases) {
  for (const [name, parse] of everyParser()) {
    const ratio = growth(parse, make, size);
    worst = Math.max(worst, ratio);
    console.log(`${ratio >= BOUND ? "TOO SLOW" : "ok"}\t${ratio.toFixed(1)}×\t${name}\t${shape}`);
  }
}
console.log(`worst growth for 8× the input: ${worst.toFixed(1)}× (bound ${BOUND}×)`);
process.exit(worst >= BOUND ? 1 : 0);
