import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { AppError } from "../errors/app-error";
import { problem, problemResponse } from "./problem";
import { logFailure } from "../errors/log-failure";

// Idempotency-Key on POSTs that create: the first answer is stored in Postgres with the key,
// so a client that retries after a timeout gets that answer again instead of a second row.
// Keys are per user and live a day. While the first request runs, a retry gets 409.

export const IDEMPOTENCY_HEADER = "idempotency-key";
const KEY_LIFETIME_MS = 24 * 3_600_000;

export function idempotencyKeyOf(request: Request): string | null {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new AppError(
      "BAD_REQUEST",
      "The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID is a good choice)",
      undefined,
      [
        {
          field: "Idempotency-Key",
          in: "header",
          pointer: "",
          detail: "Idempotency-Key must be 1 to 255 visible ASCII characters",
        },
      ],
    );
  }
  return key;
}

/** What makes two requests "the same": method, path with query, and the body (or, for uploads, their name and size). */
export function requestFingerprint(request: Request, body: string | null): string {
  const url = new URL(request.url);
  const hash = createHash("sha256").update(`${request.method} ${url.pathname}${url.search}\n`);
  hash.update(body ?? `${request.headers.get("x-file-name") ?? ""} ${request.headers.get("content-length") ?? ""}`);
  return hash.digest("hex");
}

type Claim = { userId: string; key: string; method: string; path: string; requestHash: string };

async function replayOrRefuse(db: Db, claim: Claim): Promise<Response | "retry"> {
  const existing = await db.idempotencyKey.findUnique({
    where: { userId_key: { userId: claim.userId, key: claim.key } },
  });
  if (!existing) return "retry";
  if (Date.now() - existing.createdAt.getTime() > KEY_LIFETIME_MS) {
    await db.idempotencyKey.deleteMany({ where: { id: existing.id } });
    return "retry";
  }
  if (existing.requestHash !== claim.requestHash) {
    return problemResponse(
      problem(
        "UNPROCESSABLE",
        "This Idempotency-Key was already used for a different request; send a new key with a new request",
      ),
    );
  }
  if (existing.status === null) {
    return problemResponse(
      problem("CONFLICT", "A request with this Idempotency-Key is still being processed; retry in a moment"),
      { "retry-after": "1" },
    );
  }
  return new Response(existing.body, {
    status: existing.status,
    headers: { "content-type": existing.contentType ?? "application/json", "idempotent-replayed": "true" },
  });
}

/** Runs `create` once per (user, key): a repeat replays the stored answer; a server error frees the key for a retry. */
export async function withIdempotencyKey(db: Db, claim: Claim, create: () => Promise<Response>): Promise<Response> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await db.idempotencyKey.createMany({ data: [claim], skipDuplicates: true });
    if (claimed.count === 0) {
      const answer = await replayOrRefuse(db, claim);
      if (answer === "retry") continue;
      return answer;
    }
    const where = { userId_key: { userId: claim.userId, key: claim.key } };
    // if freeing the key fails, a retry is refused as "in progress" until the claim expires: say so in the log
    const freeKey = () =>
      db.idempotencyKey
        .delete({ where })
        .catch(logFailure(`freeing Idempotency-Key "${claim.key}" after a failed ${claim.method} ${claim.path}`));
    let response: Response;
    try {
      response = await create();
    } catch (error) {
      await freeKey();
      throw error;
    }
    if (response.status >= 500) {
      await freeKey();
      return response;
    }
    const body = await response.text();
    await db.idempotencyKey.update({
      where,
      data: { status: response.status, body, contentType: response.headers.get("content-type") },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }
  throw new AppError("CONFLICT", "The Idempotency-Key changed hands while this request ran; retry");
}
