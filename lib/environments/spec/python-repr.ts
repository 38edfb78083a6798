// Python's repr() of strings, lists and dicts of them: the harness names its env image after a SHA-256 of
// str(env_script_list) (and str(docker_specs)), so the name is only the same if the repr is.

const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

export function pyStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) out += escapeChar(char, quote);
  return out + quote;
}

function escapeChar(char: string, quote: string): string {
  if (char === quote || char === "\\") return `\\${char}`;
  if (char === "\t") return "\\t";
  if (char === "\n") return "\\n";
  if (char === "\r") return "\\r";
  if (char === " " || !NOT_PRINTABLE.test(char)) return char;
  const code = char.codePointAt(0)!;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\U${code.toString(16).padStart(8, "0")}`;
}

export function pyListRepr(items: readonly string[]): string {
  return `[${items.map(pyStrRepr).join(", ")}]`;
}

/** repr() of a dict whose values are strings or integers, keys in insertion order. */
export function pyDictRepr(entries: Record<string, string | number>): string {
  const body = Object.entries(entries).map(
    ([key, value]) => `${pyStrRepr(key)}: ${typeof value === "string" ? pyStrRepr(value) : String(value)}`,
  );
  return `{${body.join(", ")}}`;
}
