import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../db/client";
import { auditLog } from "../audit/audit-log";
import { AppError } from "../errors/app-error";
import {
  roleAtLeast,
  SCOPE_MIN_ROLE,
  scopesForRole,
  TOKEN_SCOPES,
  type RoleName,
  type TokenScope,
} from "./permissions";
import { logFailure } from "../errors/log-failure";

// A token is shown once at creation; only its SHA-256 is stored, so a database leak
// yields no usable token. "swc_" makes tokens recognisable to secret scanners.
const TOKEN_PREFIX = "swc_";
export const DEFAULT_TOKEN_DAYS = 90;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export const CreateApiTokenSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    scopes: z
      .array(z.enum(TOKEN_SCOPES))
      .min(1)
      .max(TOKEN_SCOPES.length)
      .optional()
      .describe("default: every scope the owner's role allows"),
    expiresInDays: z.number().int().positive().max(3650).default(DEFAULT_TOKEN_DAYS),
  })
  .strict();
export type CreateApiTokenInput = z.input<typeof CreateApiTokenSchema>;

export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  expiresAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});

export const TOKEN_FIELDS = {
  id: true,
  name: true,
  prefix: true,
  scopes: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
  createdAt: true,
} as const;

/** The scopes asked for, refused when the owner's role could not use one of them (a token never exceeds its owner). */
function grantableScopes(role: RoleName, asked: TokenScope[] | undefined): TokenScope[] {
  if (!asked) return scopesForRole(role);
  const beyond = asked.filter((scope) => !roleAtLeast(role, SCOPE_MIN_ROLE[scope]));
  if (beyond.length) {
    throw new AppError(
      "UNPROCESSABLE",
      `A ${role} cannot hold a token with the scope ${beyond.map((s) => `"${s}"`).join(", ")}; choose from ${scopesForRole(role).join(", ")}`,
      undefined,
      [
        {
          field: "scopes",
          in: "body",
          pointer: "/scopes",
          detail: `scopes ${beyond.join(", ")} need the ${SCOPE_MIN_ROLE[beyond[0]]} role`,
        },
      ],
    );
  }
  return TOKEN_SCOPES.filter((scope) => asked.includes(scope));
}

export async function createApiToken(db: Db, userId: string, raw: CreateApiTokenInput) {
  const input = CreateApiTokenSchema.parse(raw);
  const owner = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { role: true } });
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const record = await db.apiToken.create({
    data: {
      userId,
      name: input.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, 10),
      scopes: grantableScopes(owner.role, input.scopes),
      expiresAt: new Date(Date.now() + input.expiresInDays * 86_400_000),
    },
    select: TOKEN_FIELDS,
  });
  await auditLog(db, {
    actorId: userId,
    entityType: "api_token",
    entityId: record.id,
    action: "create",
    after: record,
  });
  return { ...record, token };
}

type TokenOwnerRow = {
  id: string;
  scopes: string[];
  lastUsedAt: Date | null;
  userId: string;
  email: string;
  name: string | null;
  role: RoleName;
  disabled: boolean;
};

/** The user behind a bearer token and what the token may do, or null when it is unknown, revoked or expired. */
export async function apiTokenGrant(db: Db, token: string) {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  // one round trip for the token and its owner: this runs before every bearer request
  const [record] = await db.$queryRaw<TokenOwnerRow[]>`
    SELECT t.id, t.scopes, t.last_used_at AS "lastUsedAt", u.id AS "userId", u.email, u.name, u.role::text AS role, u.disabled
    FROM api_tokens t JOIN users u ON u.id = t.user_id
    WHERE t.token_hash = ${hashToken(token)} AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())`;
  if (!record) return null;
  // last-use is informative only: a failed update must not fail the request, so it is only logged;
  // at most once a minute, so a busy client does not turn every read into a write
  if (!record.lastUsedAt || Date.now() - new Date(record.lastUsedAt).getTime() > 60_000) {
    void db.apiToken
      .update({ where: { id: record.id }, data: { lastUsedAt: new Date() } })
      .catch(logFailure(`recording the last use of API token ${record.id}`));
  }
  const user = {
    id: record.userId,
    email: record.email,
    name: record.name,
    role: record.role,
    disabled: record.disabled,
  };
  return { user, scopes: record.scopes as TokenScope[] };
}

/** The user behind a bearer token (scopes are checked by the route guard, lib/http/define-route.ts). */
export async function userForApiToken(db: Db, token: string) {
  return (await apiTokenGrant(db, token))?.user ?? null;
}
