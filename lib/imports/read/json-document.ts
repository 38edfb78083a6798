import type { Readable } from "node:stream";
import { parser } from "stream-json";
import Assembler from "stream-json/assembler.js";

// A JSON document (a .traj, an OpenHands event array, an Inspect log) can be far larger
// than one record: a trajectory of a million tokens. It is read as tokens and handed out
// in parts — each top-level member, and each element of the arrays named in `explode` —
// so only one part is ever assembled in memory.

export type DocumentPart =
  /** a top-level member that is not exploded */
  | { kind: "member"; key: string; value: unknown }
  /** one element of an exploded top-level array member (key) or of a top-level array (key null) */
  | { kind: "element"; key: string | null; index: number; value: unknown }
  /** the document's top level is this kind of container */
  | { kind: "start"; container: "object" | "array" };

type Token = { name: string; value?: unknown };

export class DocumentError extends Error {}

export async function* readDocumentParts(
  source: Readable,
  explode: ReadonlySet<string> = new Set(),
): AsyncGenerator<DocumentPart> {
  const tokens = source.pipe(parser.asStream({ streamValues: false }));
  source.on("error", (error) => tokens.destroy(error));
  let depth = 0;
  let top: "object" | "array" | null = null;
  let key: string | null = null;
  let exploding: string | null = null;
  let index = 0;
  let assembler: Assembler | null = null;
  let assembleFrom = 0; // depth at which the part being assembled started
  try {
    for await (const token of tokens as AsyncIterable<Token>) {
      const opens = token.name === "startObject" || token.name === "startArray";
      const closes = token.name === "endObject" || token.name === "endArray";
      if (assembler) {
        assembler.consume(token as never);
        if (opens) depth++;
        if (closes) depth--;
        if (depth === assembleFrom) {
          const value = assembler.current;
          assembler = null;
          if (exploding !== null || top === "array") yield { kind: "element", key: exploding, index: index++, value };
          else yield { kind: "member", key: key!, value };
        }
        continue;
      }
      if (depth === 0) {
        if (!opens) throw new DocumentError("the document is a bare value, not a JSON object or array");
        top = token.name === "startObject" ? "object" : "array";
        depth = 1;
        yield { kind: "start", container: top };
        continue;
      }
      if (closes) {
        depth--;
        if (exploding !== null && depth === 1) exploding = null;
        continue;
      }
      if (top === "object" && depth === 1 && token.name === "keyValue") {
        key = token.value as string;
        continue;
      }
      if (top === "object" && depth === 1 && token.name === "startArray" && key !== null && explode.has(key)) {
        exploding = key;
        index = 0;
        depth = 2;
        continue;
      }
      // a value starts: a member (depth 1 of an object), an element (depth 1 of an array, or depth 2 of an exploded member)
      assembler = new Assembler();
      assembleFrom = depth;
      assembler.consume(token as never);
      if (opens) depth++;
      else {
        const value = assembler.current;
        assembler = null;
        if (exploding !== null || top === "array") yield { kind: "element", key: exploding, index: index++, value };
        else yield { kind: "member", key: key!, value };
      }
    }
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    throw new DocumentError(`malformed JSON: ${(error as Error).message}`);
  }
  if (depth !== 0) throw new DocumentError("the document ends before its JSON is closed (was the file truncated?)");
}
