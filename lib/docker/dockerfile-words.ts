// A Dockerfile word as the builder reads it: BuildKit's shell lexer (frontend/dockerfile/shell,
// used by the classic builder too) removes quotes, applies the escape token and expands
// `$NAME`, `${NAME}` and `${NAME:-word}`-style substitutions from the stage's variables.
// The policy expands ADD sources, FROM images and --from values with it, so that a URL built
// from quotes, escapes or variables is seen as the URL the daemon would fetch.

/** A variable's value, or null when the policy could not tell it (its own definition was unforeseeable). */
export type Variables = ReadonlyMap<string, string | null>;

/** The word uses something the policy does not evaluate, so it cannot say what the daemon would do with it. */
export class UnforeseeableWordError extends Error {}

/** The builder itself would refuse the word (an unterminated quote, a bad substitution). */
export class BadWordError extends Error {}

const SPECIAL_PARAMS = new Set(["@", "*", "#", "?", "-", "$", "!", "0"]);
const isNameChar = (ch: string) => /^[\p{L}\p{N}_]$/u.test(ch);
const isDigit = (ch: string) => /^\p{Nd}$/u.test(ch);

class WordScanner {
  private chars: string[];
  private position = 0;

  constructor(
    word: string,
    private readonly variables: Variables,
    private readonly escape: string,
  ) {
    this.chars = [...word];
  }

  private peek = () => this.chars[this.position];
  private next = () => this.chars[this.position++];

  /** Reads up to the stop character (or the end), expanding as it goes. */
  readUntil(stop?: string): string {
    let result = "";
    while (this.peek() !== undefined) {
      const ch = this.peek();
      if (stop !== undefined && ch === stop) {
        this.next();
        return result;
      }
      if (ch === "'") result += this.singleQuoted();
      else if (ch === '"') result += this.doubleQuoted();
      else if (ch === "$") result += this.dollar();
      else {
        this.next();
        if (ch === this.escape) {
          const escaped = this.next();
          if (escaped === undefined) break;
          result += escaped;
        } else result += ch;
      }
    }
    if (stop !== undefined) throw new BadWordError(`unexpected end of statement while looking for matching ${stop}`);
    return result;
  }

  private singleQuoted(): string {
    this.next();
    let result = "";
    for (;;) {
      const ch = this.next();
      if (ch === undefined)
        throw new BadWordError("unexpected end of statement while looking for matching single-quote");
      if (ch === "'") return result;
      result += ch;
    }
  }

  private doubleQuoted(): string {
    this.next();
    let result = "";
    for (;;) {
      const ch = this.peek();
      if (ch === undefined)
        throw new BadWordError("unexpected end of statement while looking for matching double-quote");
      if (ch === '"') {
        this.next();
        return result;
      }
      if (ch === "$") {
        result += this.dollar();
        continue;
      }
      let taken = this.next();
      if (taken === this.escape) {
        const following = this.peek();
        if (following === undefined) continue;
        if (following === '"' || following === "$" || following === this.escape) taken = this.next();
      }
      result += taken;
    }
  }

  private name(): string {
    let name = "";
    while (this.peek() !== undefined) {
      const ch = this.peek();
      if (!name && isDigit(ch)) {
        while (this.peek() !== undefined && isDigit(this.peek())) name += this.next();
        return name;
      }
      if (!name && SPECIAL_PARAMS.has(ch)) return this.next();
      if (!isNameChar(ch)) break;
      name += this.next();
    }
    return name;
  }

  private lookup(name: string): { value: string; found: boolean } {
    if (!this.variables.has(name)) return { value: "", found: false };
    const value = this.variables.get(name);
    if (value === null || value === undefined)
      throw new UnforeseeableWordError(`the value of ${name} could not be worked out`);
    return { value, found: true };
  }

  private dollar(): string {
    this.next();
    if (this.peek() !== "{") {
      const name = this.name();
      return name ? this.lookup(name).value : "$";
    }
    this.next();
    const first = this.peek();
    if (first === undefined) throw new BadWordError("syntax error: missing '}'");
    if (first === "{" || first === "}" || first === ":") throw new BadWordError("syntax error: bad substitution");
    const name = this.name();
    const operator = this.next();
    if (operator === "}") return this.lookup(name).value;
    const colon = operator === ":";
    const modifier = colon ? this.next() : operator;
    if (modifier === undefined) throw new BadWordError("syntax error: missing '}'");
    if (!["-", "+", "?"].includes(modifier)) {
      // ${NAME#pattern}, ${NAME%pattern}, ${NAME/from/to}: newer builders only, and not evaluated here
      throw new UnforeseeableWordError(
        `\${${name}${colon ? ":" : ""}${modifier}…} is a substitution the build policy does not evaluate`,
      );
    }
    const word = this.readUntil("}");
    const { value, found } = this.lookup(name);
    const set = colon ? value !== "" : found;
    if (modifier === "-") return set ? value : word;
    if (modifier === "+") return set ? word : "";
    if (!set) throw new BadWordError(`${name}: ${word || "is not allowed to be unset"}`);
    return value;
  }
}

/** The word as the builder makes it: quotes removed, escapes applied, variables expanded. */
export function expandWord(word: string, variables: Variables, escape = "\\"): string {
  return new WordScanner(word, variables, escape).readUntil();
}
