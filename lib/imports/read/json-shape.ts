// The structure of a JSON file — which keys its top level has, wherever they sit and however
// large the values between them — found by scanning bytes without building any value.
// Detection feeds it the first bytes of a file, and, when those do not decide, the rest of
// the file chunk by chunk: memory stays at a few sets of key names whatever the file's size.

import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  isSpace,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from "./json-bytes";

export type JsonShape = {
  /** what the file holds: one object, one array, several values one after another (JSONL), or no JSON */
  container: "object" | "array" | "lines" | "none";
  /** the top-level object's keys (for JSONL: the first record's keys) */
  top: Set<string>;
  /** keys of objects one level down: the top-level array's first element, or the top-level object's member values */
  inner: Set<string>;
  /** for each top-level member that is an array: the keys of its first element (a .traj's `history`, a log's `samples`) */
  memberElements: Map<string, Set<string>>;
  /** true once the first top-level value has closed (so `top` holds every key it has) */
  complete: boolean;
};

const MAX_KEYS_PER_SET = 500;
const MAX_KEY_BYTES = 200;

/** Feed it chunks in order; read `shape` at any time, and stop feeding once `done`. */
export class JsonShapeScanner {
  readonly shape: JsonShape = {
    container: "none",
    top: new Set(),
    inner: new Set(),
    memberElements: new Map(),
    complete: false,
  };
  /** nothing more can change the shape (an array's first element, or JSONL's second record, was seen) */
  done = false;
  private stack: number[] = []; // OPEN_BRACE / OPEN_BRACKET per open container
  private expectKey: boolean[] = []; // per open object: the next string is a key
  private inString = false;
  private escaped = false;
  private collecting: number[] | null = null; // bytes of a key being read, when it is wanted
  private keyTarget: Set<string> | null = null;
  private member: string | null = null; // the current top-level member's key
  private elementIndex: number[] = []; // per open array: index of the current element
  private valuesSeen = 0; // top-level values begun

  feed(chunk: Uint8Array) {
    for (let i = 0; i < chunk.length && !this.done; i++) {
      const b = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) {
          this.inString = false;
          this.endKey();
          continue;
        }
        if (this.collecting && this.collecting.length < MAX_KEY_BYTES) this.collecting.push(b);
        continue;
      }
      if (isSpace(b)) continue;
      const depth = this.stack.length;
      if (depth === 0) this.beginTopValue(b);
      if (this.done) break;
      if (b === QUOTE) {
        this.inString = true;
        this.startString();
      } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        this.stack.push(b);
        if (b === OPEN_BRACE) this.expectKey[this.stack.length - 1] = true;
        else this.elementIndex[this.stack.length - 1] = 0;
      } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        this.stack.pop();
        if (this.stack.length === 0) this.shape.complete = true;
        if (this.stack.length === 1 && this.shape.container === "array") this.done = true; // the first element is enough
      } else if (b === COMMA) {
        const top = this.stack.length - 1;
        if (this.stack[top] === OPEN_BRACE) this.expectKey[top] = true;
        else if (top >= 0) this.elementIndex[top]++;
      } else if (b === COLON) {
        this.expectKey[this.stack.length - 1] = false;
      }
    }
  }

  private beginTopValue(b: number) {
    this.valuesSeen++;
    if (this.valuesSeen === 2) {
      if (this.shape.container === "object") this.shape.container = "lines";
      this.done = true;
      return;
    }
    this.shape.container = b === OPEN_BRACE ? "object" : b === OPEN_BRACKET ? "array" : "none";
    if (this.shape.container === "none") this.done = true;
  }

  /** Decides whether the string now starting is a key we want, and into which set. */
  private startString() {
    const depth = this.stack.length;
    const level = depth - 1;
    if (depth === 0 || this.stack[level] !== OPEN_BRACE || !this.expectKey[level]) return;
    const outer = this.stack[0];
    let target: Set<string> | null = null;
    if (depth === 1) target = this.shape.top;
    else if (depth === 2 && outer === OPEN_BRACKET && this.elementIndex[0] === 0) target = this.shape.inner;
    else if (depth === 2 && outer === OPEN_BRACE) target = this.shape.inner;
    else if (
      depth === 3 &&
      outer === OPEN_BRACE &&
      this.stack[1] === OPEN_BRACKET &&
      this.elementIndex[1] === 0 &&
      this.member !== null
    ) {
      target = this.shape.memberElements.get(this.member) ?? new Set();
      this.shape.memberElements.set(this.member, target);
    }
    if (!target || target.size >= MAX_KEYS_PER_SET) return;
    this.collecting = [];
    this.keyTarget = target;
  }

  private endKey() {
    if (!this.collecting || !this.keyTarget) return;
    const key = Buffer.from(this.collecting).toString("utf8");
    this.keyTarget.add(key);
    if (this.keyTarget === this.shape.top) this.member = key;
    this.collecting = null;
    this.keyTarget = null;
  }
}

export function shapeOf(bytes: Uint8Array): JsonShape {
  const scanner = new JsonShapeScanner();
  scanner.feed(bytes);
  return scanner.shape;
}

/** Scans a stream until the shape is decided or the stream ends; stops reading early when it can. */
export async function shapeOfStream(chunks: AsyncIterable<Uint8Array>): Promise<JsonShape> {
  const scanner = new JsonShapeScanner();
  for await (const chunk of chunks) {
    scanner.feed(chunk);
    if (scanner.done) break;
  }
  return scanner.shape;
}
