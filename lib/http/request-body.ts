import { AppError, type FieldError } from "../errors/app-error";
import { logFailure } from "../errors/log-failure";

// JSON bodies of /api/v1 are small (decisions, edits, settings); uploads stream instead
// (their routes read request.body themselves). A body is refused, with the reason, when it is
// too large, not JSON, nested beyond reason, or holds NUL characters (PostgreSQL text cannot).

export const MAX_JSON_BODY_BYTES = 1024 * 1024;
const MAX_DEPTH = 32;

async function readCapped(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(logFailure("closing an oversized request body"));
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

const tooLarge = (limit: number) =>
  new AppError("PAYLOAD_TOO_LARGE", `The body is larger than ${Math.round(limit / 1024)} KiB; send less at once`);

const isJsonType = (type: string | null) => !!type && /^application\/([\w.+-]+\+)?json\b/i.test(type.trim());

/** The first string holding NUL, or the first place nested too deep, as a field error. */
function findUnstorable(value: unknown, path: (string | number)[] = []): FieldError | null {
  const field = () =>
    path.reduce<string>((name, p) => (typeof p === "number" ? `${name}[${p}]` : name ? `${name}.${p}` : p), "") ||
    "(the body)";
  const pointer = () => "/" + path.join("/");
  if (path.length > MAX_DEPTH)
    return {
      field: field(),
      in: "body",
      pointer: pointer(),
      detail: `${field()} is nested deeper than ${MAX_DEPTH} levels`,
    };
  if (typeof value === "string")
    return value.includes("\u0000")
      ? {
          field: field(),
          in: "body",
          pointer: pointer(),
          detail: `${field()} contains a NUL character, which cannot be stored`,
        }
      : null;
  if (value && typeof value === "object") {
    for (const [key, member] of Object.entries(value)) {
      if (key.includes("\u0000"))
        return {
          field: field(),
          in: "body",
          pointer: pointer(),
          detail: `a field name in ${field()} contains a NUL character`,
        };
      const found = findUnstorable(member, [...path, Array.isArray(value) ? Number(key) : key]);
      if (found) return found;
    }
  }
  return null;
}

/** Reads a JSON body under a size cap; an empty body reads as {} (optional bodies). */
export async function readJsonBody(
  request: Request,
  limit = MAX_JSON_BODY_BYTES,
): Promise<{ text: string; value: unknown }> {
  const text = await readCapped(request, limit);
  if (text.trim() === "") return { text, value: {} };
  if (!isJsonType(request.headers.get("content-type"))) {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      "Send the body as JSON with the header Content-Type: application/json",
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError("BAD_REQUEST", `The body is not valid JSON (${(error as Error).message})`, undefined, [
      { field: "(the body)", in: "body", pointer: "", detail: "the body is not valid JSON" },
    ]);
  }
  const unstorable = findUnstorable(value);
  if (unstorable)
    throw new AppError("BAD_REQUEST", `The body cannot be stored: ${unstorable.detail}`, undefined, [unstorable]);
  return { text, value };
}
