import { logLines, type TestStatus, type TestStatusMap } from "../test-status";

const WORDS: TestStatus[] = ["PASSED", "FAILED", "ERROR", "SKIPPED"];
const SEPARATORS = [":", "...", " -"];

/** `PASSED: id` / `FAILED id`: the status first, then the id. */
function statusFirst(line: string): [string, TestStatus] | undefined {
  const word = WORDS.find((w) => line.startsWith(w));
  if (!word) return undefined;
  let rest = line.slice(word.length);
  if (rest.startsWith(":")) rest = rest.slice(1);
  if (!/^\s/.test(rest)) return undefined;
  const id = rest.trim();
  return id ? [id, word] : undefined;
}

/** `id: PASSED` / `id ... FAILED` / `id - ERROR`: the id first, then a separator and the status. */
function statusLast(line: string): [string, TestStatus] | undefined {
  const body = line.trimEnd();
  const word = WORDS.find((w) => body.endsWith(w));
  if (!word || /^\s/.test(body)) return undefined;
  const head = body.slice(0, -word.length).trimEnd();
  const separator = SEPARATORS.find((s) => head.endsWith(s));
  if (!separator) return undefined;
  const id = head.slice(0, -separator.length).trimEnd();
  return id ? [id, word] : undefined;
}

/**
 * The fallback for any runner whose eval script prints one line per test as
 * `PASSED: id` / `FAILED id` or `id: PASSED` / `id ... FAILED`.
 */
export function parseGenericLog(log: string): TestStatusMap {
  const results: TestStatusMap = new Map();
  for (const line of logLines(log)) {
    const found = statusFirst(line) ?? statusLast(line);
    if (found) results.set(found[0], found[1]);
  }
  return results;
}
