import { z, ZodError, type ZodType } from "zod";
import { AppError, ERROR_STATUS } from "../errors/app-error";
import { requireRole, type Actor } from "../auth/actor";
import type { RoleName } from "../auth/permissions";
import { readJsonBody } from "./read-body";
import { isDatabaseUnavailable } from "../db/database-errors";
import { assertSameSiteMutation } from "./cross-site";

export type RouteContext<P> = { request: Request; actor: Actor; params: P; url: URL };

type Handler<P> = (ctx: RouteContext<P>) => Promise<Response | unknown>;

/** Metadata the guard test reads to prove every handler checks a role. */
export type GuardedHandler = ((request: Request, context?: { params?: Promise<unknown> }) => Promise<Response>) & {
  guard: { role: RoleName };
};

export function errorResponse(error: unknown): Response {
  if (isDatabaseUnavailable(error)) return errorResponse(new AppError("DATABASE_UNAVAILABLE", "The database is not answering right now (restarting or unreachable); try again in a few seconds"));
  if (error instanceof AppError) {
    return Response.json({ error: { code: error.code, message: error.message, details: error.details } }, { status: ERROR_STATUS[error.code] });
  }
  if (error instanceof ZodError) {
    return Response.json(
      { error: { code: "BAD_REQUEST", message: "The request is not valid", details: z.treeifyError(error) } },
      { status: 400 },
    );
  }
  console.error("[api] unexpected error", error);
  return Response.json({ error: { code: "INTERNAL", message: "Something went wrong on the server; it was logged" } }, { status: 500 });
}

const toJsonSafe = (_key: string, value: unknown) => (typeof value === "bigint" ? Number(value) : value);

/**
 * Wraps a route handler: checks the session's role first (401/403), then runs the handler,
 * mapping AppError and zod errors to HTTP in this one place.
 */
export function defineRoute<P = Record<string, string>>(role: RoleName, handler: Handler<P>): GuardedHandler {
  const wrapped = async (request: Request, context?: { params?: Promise<unknown> }) => {
    try {
      assertSameSiteMutation(request);
      const actor = await requireRole(request.headers, role);
      const params = ((await context?.params) ?? {}) as P;
      const result = await handler({ request, actor, params, url: new URL(request.url) });
      if (result instanceof Response) return result;
      return new Response(JSON.stringify(result ?? null, toJsonSafe), { headers: { "content-type": "application/json" } });
    } catch (error) {
      return errorResponse(error);
    }
  };
  return Object.assign(wrapped, { guard: { role } });
}

/** Parses a JSON body (under the caps of read-body.ts) with a zod schema; a malformed body is a 400, not a 500. */
export async function parseBody<T>(request: Request, schema: ZodType<T>): Promise<T> {
  return schema.parse(await readJsonBody(request));
}

export function parseQuery<T>(url: URL, schema: ZodType<T>): T {
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    raw[key] = all.length > 1 ? all : all[0];
  }
  return schema.parse(raw);
}
