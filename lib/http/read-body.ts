import { z } from "zod";
import { AppError } from "../errors/app-error";

// Every JSON body a route reads goes through here, so none can make the server buffer more
// than a cap, and none can smuggle a huge string or a deeply nested value into the domain.
// Uploads stream elsewhere with their own (configurable) cap.

const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const BodyLimitsSchema = z.object({
  API_MAX_JSON_BODY_BYTES: int(4 * 1024 * 1024),
  API_MAX_JSON_MEMBER_BYTES: int(1024 * 1024),
  API_MAX_JSON_DEPTH: int(32),
});

export type BodyLimits = { maxBytes: number; maxMemberBytes: number; maxDepth: number };

export function bodyLimitsFromEnv(env: Record<string, string | undefined> = process.env): BodyLimits {
  const e = BodyLimitsSchema.parse(env);
  return { maxBytes: e.API_MAX_JSON_BODY_BYTES, maxMemberBytes: e.API_MAX_JSON_MEMBER_BYTES, maxDepth: e.API_MAX_JSON_DEPTH };
}

const kb = (n: number) => `${Math.round(n / 1024).toLocaleString("en-US")} KB`;
const tooLarge = (max: number) => new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${kb(max)}; nothing was changed`);

/** Reads the body as text, refusing (413) as soon as it passes the cap — declared or counted. */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    parts.push(value);
  }
  return Buffer.concat(parts, size).toString("utf8");
}

/** Finds the first member over a cap: too deep, or a string too long. Names it by its path. */
function checkMembers(value: unknown, limits: BodyLimits, at: string, depth: number): void {
  const where = at || "the body";
  if (typeof value === "string") {
    const bytes = Buffer.byteLength(value);
    if (bytes > limits.maxMemberBytes) throw new AppError("UNPROCESSABLE", `${where} is ${kb(bytes)}, over the ${kb(limits.maxMemberBytes)} limit for one member`);
    return;
  }
  if (!value || typeof value !== "object") return;
  if (depth >= limits.maxDepth) throw new AppError("UNPROCESSABLE", `${where} is nested more than ${limits.maxDepth} levels deep`);
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, inner] of entries) checkMembers(inner, limits, at ? `${at}.${key}` : key, depth + 1);
}

/** The body as JSON under the caps: 413 over the size, 400 when it is no JSON, 422 naming an oversized or too-deep member. */
export async function readJsonBody(request: Request, limits: BodyLimits = bodyLimitsFromEnv()): Promise<unknown> {
  const text = await readBodyText(request, limits.maxBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("BAD_REQUEST", "The body must be JSON");
  }
  checkMembers(body, limits, "", 0);
  return body;
}
