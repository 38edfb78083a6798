// A Dockerfile split into instructions by the builder's own rules (BuildKit's
// frontend/dockerfile/parser, which the classic builder uses too): parser directives
// (`# escape=`), comments, line continuations, the flags before the arguments, and the JSON
// or whitespace-split argument forms. Builder generations differ in small ways (which
// directives they know, how a doubled escape token at a line's end reads, which line ends
// they trim), so the policy reads a recipe the way each generation would.

export type Generation = {
  name: string;
  /** Directive names this generation knows; an unknown one ends the directives. */
  directives: ReadonlySet<string>;
  /** A line ending in a doubled escape token (`foo \\`) still continues (older parsers). */
  doubledEscapeContinues: boolean;
  /** Trims every trailing CR (newer), or only the one before LF (Go's line scanner, older). */
  trimsAllCarriageReturns: boolean;
  /** Flags (`--from="x"`) are unquoted with the escape token (newer) or always with a backslash (older). */
  flagsUseEscapeToken: boolean;
};

export const GENERATIONS: readonly Generation[] = [
  // Docker 20.10's classic builder (BuildKit 0.8's parser)
  {
    name: "classic",
    directives: new Set(["escape", "syntax"]),
    doubledEscapeContinues: true,
    trimsAllCarriageReturns: false,
    flagsUseEscapeToken: false,
  },
  // newer engines' parser
  {
    name: "current",
    directives: new Set(["escape", "syntax", "check"]),
    doubledEscapeContinues: false,
    trimsAllCarriageReturns: true,
    flagsUseEscapeToken: true,
  },
];

export type Instruction = {
  /** Upper-cased keyword as written (FROM, ADD, …). */
  keyword: string;
  flags: string[];
  /** The argument words: JSON strings already decoded, shell words still raw (quotes and variables in place). */
  args: string[];
  json: boolean;
  /** Everything after the keyword (and its flags), as one string. */
  rest: string;
  /** The whole instruction on one line, continuations joined. */
  original: string;
  line: number;
  /** ONBUILD's instruction. */
  trigger?: Instruction;
};

export type ParsedDockerfile = {
  instructions: Instruction[];
  escape: string;
  directives: Record<string, string>;
  error?: string;
};

const WHITESPACE = /[\t\v\f\r ]+/;
const isSpace = (ch: string) => /^\s$/u.test(ch);
const trimLeft = (text: string) => text.replace(/^\s+/u, "");
const isComment = (line: string) => trimLeft(line).startsWith("#");

/** The first JSON value of `text` when it is an array of strings; undefined when it is not JSON (Go's decoder ignores what follows). */
function leadingJsonArray(text: string): string[] | undefined | "not strings" {
  if (!text.startsWith("[")) return undefined;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const ch = text[index];
    if (inString) {
      if (ch === "\\") index++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "[" || ch === "{") depth++;
    else if (ch === "]" || ch === "}") {
      if (--depth > 0) continue;
      try {
        const value = JSON.parse(text.slice(0, index + 1)) as unknown;
        if (!Array.isArray(value)) return undefined;
        return value.every((item) => typeof item === "string") ? value : "not strings";
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Leading `--name=value` words, unquoted; the rest of the line after them. */
function extractFlags(line: string, escape: string): { flags: string[]; rest: string } {
  const flags: string[] = [];
  let position = 0;
  for (;;) {
    while (position < line.length && isSpace(line[position])) position++;
    if (!line.startsWith("--", position)) return { flags, rest: line.slice(position) };
    let word = "";
    let quote = "";
    for (; position < line.length; position++) {
      let ch = line[position];
      if (!quote && isSpace(ch)) break;
      if (!quote && (ch === "'" || ch === '"')) {
        quote = ch;
        continue;
      }
      if (quote && ch === quote) {
        quote = "";
        continue;
      }
      if (ch === escape) {
        if (position + 1 === line.length) continue;
        ch = line[++position];
      }
      word += ch;
    }
    if (word === "--") return { flags, rest: line.slice(position) };
    flags.push(word);
  }
}

/** Words of ARG/ENV/LABEL: whitespace-separated, quotes and escapes kept for the lexer. */
export function splitWords(rest: string, escape: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote = "";
  let inWord = false;
  const chars = [...rest];
  for (let index = 0; index < chars.length; index++) {
    const ch = chars[index];
    if (!quote && isSpace(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      continue;
    }
    inWord = true;
    if (quote) {
      if (ch === quote) quote = "";
      else if (ch === escape && quote !== "'") {
        if (index + 1 === chars.length) continue;
        word += ch;
        word += chars[++index];
        continue;
      }
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === escape) {
      if (index + 1 === chars.length) continue;
      word += ch + chars[++index];
      continue;
    }
    word += ch;
  }
  if (inWord) words.push(word);
  return words;
}

function parseInstruction(
  text: string,
  line: number,
  escape: string,
  generation: Generation,
): Instruction | { error: string } {
  const trimmed = text.trim();
  const gap = WHITESPACE.exec(trimmed);
  const keyword = gap ? trimmed.slice(0, gap.index) : trimmed;
  const afterKeyword = gap ? trimmed.slice(gap.index + gap[0].length) : "";
  const { flags, rest: unflagged } = extractFlags(afterKeyword, generation.flagsUseEscapeToken ? escape : "\\");
  const rest = unflagged.trim();
  const upper = keyword.toUpperCase();
  const instruction: Instruction = { keyword: upper, flags, args: [], json: false, rest, original: trimmed, line };
  if (upper === "ONBUILD") {
    if (!rest) return instruction;
    const trigger = parseInstruction(rest, line, escape, generation);
    if ("error" in trigger) return trigger;
    return { ...instruction, trigger };
  }
  if (upper === "ADD" || upper === "COPY" || upper === "VOLUME") {
    const json = leadingJsonArray(trimLeft(rest));
    if (json === "not strings")
      return { error: `Line ${line}: ${upper}'s JSON array holds something other than strings` };
    if (json) return { ...instruction, args: json, json: true };
  }
  if (upper === "ARG" || upper === "ENV" || upper === "LABEL")
    return { ...instruction, args: splitWords(rest, escape) };
  return { ...instruction, args: rest ? rest.split(WHITESPACE) : [] };
}

/** Splits a Dockerfile into its instructions the way the given builder generation does. */
export function parseDockerfile(text: string, generation: Generation): ParsedDockerfile {
  let escape = "\\";
  const directives: Record<string, string> = {};
  let directivesDone = false;
  const instructions: Instruction[] = [];
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  if (lines.at(-1) === "") lines.pop();

  const withoutLineEnd = (line: string) => {
    let end = line.length;
    if (generation.trimsAllCarriageReturns) while (end > 0 && (line[end - 1] === "\r" || line[end - 1] === "\n")) end--;
    else if (line.endsWith("\r")) end--;
    return line.slice(0, end);
  };
  const directive = (line: string): string | undefined => {
    if (directivesDone) return;
    const parts = line.startsWith("#") ? /^([a-zA-Z][a-zA-Z0-9]*)\s*=/.exec(trimLeft(line.slice(1))) : null;
    const name = parts?.[1].toLowerCase();
    const value = parts ? trimLeft(trimLeft(line.slice(1)).slice(parts[0].length)).trimEnd() : "";
    if (!name || !value || !generation.directives.has(name)) {
      directivesDone = true;
      return;
    }
    if (name in directives) return `only one ${name} parser directive can be used`;
    directives[name] = value;
    if (name === "escape") {
      if (value !== "`" && value !== "\\") return `invalid escape token '${value}' does not match \` or \\`;
      escape = value;
    }
  };
  const continues = (line: string): { text: string; more: boolean } => {
    const e = escape === "\\" ? "\\\\" : "`";
    const pattern = generation.doubledEscapeContinues
      ? new RegExp(`${e}[ \\t]*$`)
      : new RegExp(`([^${e}])${e}[ \\t]*$|^${e}[ \\t]*$`);
    if (!pattern.test(line)) return { text: line, more: false };
    return { text: line.replace(pattern, generation.doubledEscapeContinues ? "" : "$1"), more: true };
  };

  for (let index = 0; index < lines.length;) {
    const raw = trimLeft(withoutLineEnd(lines[index++]));
    const problem = directive(raw);
    if (problem) return { instructions, escape, directives, error: `Line ${index}: ${problem}` };
    const startLine = index;
    let { text: joined, more } = continues(isComment(raw) ? "" : raw);
    if (!more && joined === "") continue;
    while (more && index < lines.length) {
      const next = withoutLineEnd(lines[index++]);
      const nextProblem = directive(next);
      if (nextProblem) return { instructions, escape, directives, error: `Line ${index}: ${nextProblem}` };
      // comment lines and empty lines inside a continuation are skipped
      if (isComment(next) || trimLeft(next) === "") continue;
      const part = continues(next);
      joined += part.text;
      more = part.more;
    }
    const parsed = parseInstruction(joined, startLine, escape, generation);
    if ("error" in parsed) return { instructions, escape, directives, error: parsed.error };
    instructions.push(parsed);
  }
  return { instructions, escape, directives };
}
