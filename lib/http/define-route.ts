import { ZodError, type ZodType, type z } from "zod";
import { AppError } from "../errors/app-error";
import { requireRole, type Actor } from "../auth/actor";
import { apiTokenGrant } from "../auth/api-tokens";
import { PERMISSIONS, requiredScope, roleAtLeast, type Permission, type RoleName } from "../auth/permissions";
import { prisma } from "../db/client";
import { problemFor, problemResponse, validationProblem } from "./problem";
import { readJsonBody } from "./request-body";
import { idempotencyKeyOf, requestFingerprint, withIdempotencyKey } from "./idempotency";
import { assertSameSiteMutation } from "./cross-site";

/**
 * What a route is, in one place: who may call it, what it reads and what it answers. The
 * guard, the validation and the OpenAPI document (lib/http/openapi.ts) all read this spec,
 * so the document cannot drift from what the route accepts.
 */
export type RouteSpec = {
  permission: Permission;
  summary: string;
  description?: string;
  params?: ZodType;
  query?: ZodType;
  /** a JSON body, read (size-capped), parsed and validated before the handler runs */
  body?: ZodType;
  /** the success answer's JSON; omitted with `produces` for streams */
  response?: ZodType;
  /** a non-JSON success answer: text/event-stream, application/x-ndjson … */
  produces?: string;
  /** the handler reads a raw (streamed) body of this type itself, e.g. an upload */
  consumes?: string;
  status?: 200 | 201 | 202;
  /** a POST that creates: honours Idempotency-Key */
  idempotent?: boolean;
};

type Parsed<T> = T extends ZodType ? z.output<T> : undefined;
type Params<S extends RouteSpec> = S["params"] extends ZodType ? z.output<S["params"]> : Record<string, string>;

export type RouteContext<S extends RouteSpec> = {
  request: Request;
  actor: Actor;
  url: URL;
  params: Params<S>;
  query: Parsed<S["query"]>;
  body: Parsed<S["body"]>;
};

/** Metadata the guard test and the OpenAPI document read. */
export type GuardedHandler = ((request: Request, context?: { params?: Promise<unknown> }) => Promise<Response>) & {
  guard: { role: RoleName; permission: Permission };
  spec: RouteSpec;
};

export const toJsonSafe = (_key: string, value: unknown) => (typeof value === "bigint" ? Number(value) : value);

export const jsonResponse = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value ?? null, toJsonSafe), { status, headers: { "content-type": "application/json" } });

/** The caller, checked against the route's role and, for a bearer token, against the token's scopes too. */
async function authorize(request: Request, permission: Permission): Promise<Actor> {
  const role = PERMISSIONS[permission];
  const authorization = request.headers.get("authorization");
  if (!authorization?.startsWith("Bearer ")) return requireRole(request.headers, role);
  const grant = await apiTokenGrant(prisma, authorization.slice(7).trim());
  if (!grant || grant.user.disabled) throw new AppError("UNAUTHENTICATED", "The API token is unknown, revoked or expired; create a new one in Settings → API tokens");
  const { user, scopes } = grant;
  if (!roleAtLeast(user.role, role)) throw new AppError("FORBIDDEN", `This needs the ${role} role; the token's owner is ${user.role}`);
  const scope = requiredScope(permission, request.method);
  if (!scopes.includes(scope)) throw new AppError("FORBIDDEN", `This token lacks the "${scope}" scope (it has ${scopes.join(", ")}); create a token with that scope`);
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

function validate<T>(schema: ZodType<T>, value: unknown, where: "body" | "query" | "path"): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationFailure(result.error, where);
  return result.data;
}

class ValidationFailure extends Error {
  constructor(
    readonly zodError: ZodError,
    readonly where: "body" | "query" | "path",
  ) {
    super("validation failed");
  }
}

export function queryObject(url: URL): Record<string, string | string[]> {
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    raw[key] = all.length > 1 ? all : all[0];
  }
  return raw;
}

export function errorResponse(error: unknown): Response {
  if (error instanceof ValidationFailure) return problemResponse(validationProblem(error.zodError, error.where));
  const doc = problemFor(error);
  return problemResponse(doc, doc.code === "DATABASE_UNAVAILABLE" ? { "retry-after": "1" } : {});
}

/**
 * Wraps a route handler: checks the caller's role and token scope first (401/403), reads and
 * validates path, query and body, runs the handler (once per Idempotency-Key on creating
 * POSTs), and answers every failure as a problem document, in this one place.
 */
export function defineRoute<const S extends RouteSpec>(spec: S, handler: (ctx: RouteContext<S>) => Promise<Response | unknown>): GuardedHandler {
  const wrapped = async (request: Request, context?: { params?: Promise<unknown> }) => {
    try {
      assertSameSiteMutation(request);
      const actor = await authorize(request, spec.permission);
      const url = new URL(request.url);
      const rawParams = (await context?.params) ?? {};
      const params = (spec.params ? validate(spec.params, rawParams, "path") : rawParams) as Params<S>;
      const query = (spec.query ? validate(spec.query, queryObject(url), "query") : undefined) as Parsed<S["query"]>;
      const raw = spec.body ? await readJsonBody(request) : null;
      const body = (spec.body ? validate(spec.body, raw!.value, "body") : undefined) as Parsed<S["body"]>;
      const run = async () => {
        try {
          const result = await handler({ request, actor, url, params, query, body });
          return result instanceof Response ? result : jsonResponse(result, spec.status);
        } catch (error) {
          return errorResponse(error);
        }
      };
      const key = spec.idempotent ? idempotencyKeyOf(request) : null;
      if (!key) return await run();
      const claim = { userId: actor.id, key, method: request.method, path: url.pathname, requestHash: requestFingerprint(request, raw?.text ?? null) };
      return await withIdempotencyKey(prisma, claim, run);
    } catch (error) {
      return errorResponse(error);
    }
  };
  return Object.assign(wrapped, { guard: { role: PERMISSIONS[spec.permission], permission: spec.permission }, spec });
}
