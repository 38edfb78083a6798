// Pure helpers for showing build and run logs.

// CSI sequences (colours, cursor moves), OSC sequences (titles, links) and lone escapes
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** Removes ANSI escape codes and turns carriage-return progress bars into their final state. */
export function stripAnsi(text: string): string {
  return text
    .replace(ANSI, "")
    .split("\n")
    .map((line) => {
      const parts = line.replace(/\r$/, "").split("\r");
      return parts[parts.length - 1];
    })
    .join("\n");
}

const FAILURE_PATTERNS = [
  /^FAILED\b/, // pytest short summary
  /^ERROR\b/,
  /^_{3,} .+ _{3,}$/, // pytest failure section header
  /Traceback \(most recent call last\)/,
  /^E {2,}\S/, // pytest assertion detail
  /\b(?:AssertionError|ModuleNotFoundError|ImportError|SyntaxError)\b/,
  /^(?:npm ERR!|FAIL |--- FAIL:|error(?:\[E\d+\])?:)/i,
  /\bThe command .* returned a non-zero code\b/, // docker build
];

/** 1-based number of the first line that looks like a failure, or null. */
export function firstFailureLine(text: string): number | null {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (FAILURE_PATTERNS.some((p) => p.test(lines[i]))) return i + 1;
  }
  return null;
}

/** The text before line `line` (1-based), that line without its newline, and the rest; null past the end. */
export function splitAtLine(text: string, line: number): { before: string; line: string; after: string } | null {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const newline = text.indexOf("\n", start);
    if (newline < 0) return null;
    start = newline + 1;
  }
  const end = text.indexOf("\n", start);
  const stop = end < 0 ? text.length : end;
  return { before: text.slice(0, start), line: text.slice(start, stop), after: text.slice(stop) };
}
