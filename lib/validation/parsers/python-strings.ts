// Python's whitespace rules, so ports of SWE-bench's parsers split and strip exactly as it does.

/** Python's str.split() with no argument: runs of whitespace separate, ends trimmed. */
export function pySplit(text: string): string[] {
  const parts: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (isPyWhitespace(text.charCodeAt(i))) {
      if (start >= 0) parts.push(text.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) parts.push(text.slice(start));
  return parts;
}

export function isPyWhitespace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    (code >= 28 && code <= 32) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

export const pyStrip = (text: string) => {
  let start = 0;
  let end = text.length;
  while (start < end && isPyWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isPyWhitespace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
};
