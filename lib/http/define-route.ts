import { ZodError, type ZodType, type z } from "zod";
import { AppError } from "../errors/app-error";
import { requireRole, type Actor } from "../auth/actor";
import { blindSetOf, type BlindSet } from "../auth/blind";
import { apiTokenGrant } from "../auth/api-tokens";
import { PERMISSIONS, requiredScope, roleAtLeast, type Permission, type RoleName } from "../auth/permissions";
import { prisma, type PrismaClient } from "../db/client";
import { problemFor, problemResponse, validationProblem } from "./problem";
import { readJsonBody } from "./request-body";
import { idempotencyKeyOf, requestFingerprint, withIdempotencyKey } from "./idempotency";
import { assertSameSiteMutation } from "./cross-site";
import { bigintReplacer } from "../json/bigint-json";
import { requestIdOf, requestLog, type RequestLog } from "./request-log";
import { queryRecord } from "./search-params";

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

/**
 * What every handler is given besides its input: the database, the request's id and a log
 * whose lines carry that id — so a route file needs no import of the Prisma singleton and
 * stays a spec plus one call into lib/.
 */
export type RequestContext = {
  db: PrismaClient;
  requestId: string;
  log: RequestLog;
};

export type RouteContext<S extends RouteSpec> = RequestContext & {
  request: Request;
  actor: Actor;
  /** the actor's blind set (lib/auth/blind.ts): every read of tasks, runs, trajectories, history, exports and analytics applies it; asks nothing until used */
  blind: BlindSet;
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

export const jsonResponse = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value ?? null, bigintReplacer), {
    status,
    headers: { "content-type": "application/json" },
  });

/** The caller, checked against the route's role and, for a bearer token, against the token's scopes too. */
async function authorize(request: Request, permission: Permission, db: PrismaClient): Promise<Actor> {
  const role = PERMISSIONS[permission];
  const authorization = request.headers.get("authorization");
  if (!authorization?.startsWith("Bearer ")) return requireRole(request.headers, role);
  const grant = await apiTokenGrant(db, authorization.slice(7).trim());
  if (!grant || grant.user.disabled)
    throw new AppError(
      "UNAUTHENTICATED",
      "The API token is unknown, revoked or expired; create a new one in Settings → API tokens",
    );
  const { user, scopes } = grant;
  if (!roleAtLeast(user.role, role))
    throw new AppError("FORBIDDEN", `This needs the ${role} role; the token's owner is ${user.role}`);
  const scope = requiredScope(permission, request.method);
  if (!scopes.includes(scope))
    throw new AppError(
      "FORBIDDEN",
      `This token lacks the "${scope}" scope (it has ${scopes.join(", ")}); create a token with that scope`,
    );
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

/** The request id on the answer, so a person reporting an error can name the log lines that go with it. */
function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set("x-request-id", requestId);
    return response;
  } catch {
    // a Response with immutable headers (one passed through from fetch): copy it
    const copy = new Response(response.body, response);
    copy.headers.set("x-request-id", requestId);
    return copy;
  }
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

export function errorResponse(error: unknown, log?: RequestLog): Response {
  if (error instanceof ValidationFailure) return problemResponse(validationProblem(error.zodError, error.where));
  const doc = problemFor(error, log && ((unexpected) => log.error("unexpected error", unexpected)));
  return problemResponse(doc, doc.code === "DATABASE_UNAVAILABLE" ? { "retry-after": "1" } : {});
}

/**
 * Wraps a route handler: checks the caller's role and token scope first (401/403), reads and
 * validates path, query and body, runs the handler (once per Idempotency-Key on creating
 * POSTs), and answers every failure as a problem document, in this one place.
 */
export function defineRoute<const S extends RouteSpec>(
  spec: S,
  handler: (ctx: RouteContext<S>) => Promise<Response | unknown>,
): GuardedHandler {
  const wrapped = async (request: Request, context?: { params?: Promise<unknown> }) => {
    const requestId = requestIdOf(request);
    const log = requestLog(requestId, request);
    return withRequestId(await answer(request, context, { db: prisma, requestId, log }), requestId);
  };
  const answer = async (
    request: Request,
    context: { params?: Promise<unknown> } | undefined,
    requestContext: RequestContext,
  ): Promise<Response> => {
    try {
      assertSameSiteMutation(request);
      const actor = await authorize(request, spec.permission, requestContext.db);
      const url = new URL(request.url);
      const rawParams = (await context?.params) ?? {};
      const params = (spec.params ? validate(spec.params, rawParams, "path") : rawParams) as Params<S>;
      const query = (spec.query ? validate(spec.query, queryRecord(url.searchParams), "query") : undefined) as Parsed<
        S["query"]
      >;
      const raw = spec.body ? await readJsonBody(request) : null;
      const body = (spec.body ? validate(spec.body, raw!.value, "body") : undefined) as Parsed<S["body"]>;
      const run = async () => {
        try {
          const result = await handler({
            ...requestContext,
            request,
            actor,
            blind: blindSetOf(requestContext.db, actor),
            url,
            params,
            query,
            body,
          });
          return result instanceof Response ? result : jsonResponse(result, spec.status);
        } catch (error) {
          return errorResponse(error, requestContext.log);
        }
      };
      const key = spec.idempotent ? idempotencyKeyOf(request) : null;
      if (!key) return await run();
      const claim = {
        userId: actor.id,
        key,
        method: request.method,
        path: url.pathname,
        requestHash: requestFingerprint(request, raw?.text ?? null),
      };
      return await withIdempotencyKey(requestContext.db, claim, run);
    } catch (error) {
      return errorResponse(error, requestContext.log);
    }
  };
  return Object.assign(wrapped, { guard: { role: PERMISSIONS[spec.permission], permission: spec.permission }, spec });
}
