// What the page marks in a step for a search: the words of the query (as Postgres matched
// them, case-insensitively), or the regular expression itself.

export type SearchTerms = { q: string; regex: boolean };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A global, case-insensitive pattern for the terms, or null when there is nothing to mark or the expression is not valid here. */
export function highlightPattern(terms: SearchTerms | null): RegExp | null {
  if (!terms?.q.trim()) return null;
  try {
    if (terms.regex) return new RegExp(terms.q, "gi");
    const words = terms.q.trim().split(/\s+/).filter(Boolean).map(escape);
    return new RegExp(words.join("|"), "gi");
  } catch {
    return null;
  }
}

/** The text cut into plain and marked pieces. */
export function splitMatches(text: string, pattern: RegExp | null): { text: string; match: boolean }[] {
  if (!pattern || !text) return [{ text, match: false }];
  const pieces: { text: string; match: boolean }[] = [];
  let last = 0;
  for (const found of text.matchAll(pattern)) {
    if (!found[0]) break; // an expression that matches the empty string marks nothing
    if (found.index > last) pieces.push({ text: text.slice(last, found.index), match: false });
    pieces.push({ text: found[0], match: true });
    last = found.index + found[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), match: false });
  return pieces;
}

/** "12-20" → [12, 20]; a single "7" → [7, 7]; anything else → null. Lines count from 1. */
export function parseLineRange(value: string | null | undefined): [number, number] | null {
  const match = /^(\d{1,7})(?:-(\d{1,7}))?$/.exec(value ?? "");
  if (!match) return null;
  const start = Number(match[1]);
  const end = Number(match[2] ?? match[1]);
  return start >= 1 && end >= start ? [start, end] : null;
}
