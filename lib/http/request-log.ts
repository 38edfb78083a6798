import { errorMessageOf } from "../errors/error-message";

/** Lines a route writes about one request, each carrying its request id, method and path so they can be found together. */
export type RequestLog = {
  /** something failed that the caller was not told about, or an unexpected error (with its stack) */
  error(message: string, error?: unknown): void;
  warn(message: string, error?: unknown): void;
};

const REQUEST_ID = /^[\w.:-]{1,100}$/;

/** The caller's X-Request-Id when it is a plain token (a proxy's), else a fresh one. */
export const requestIdOf = (request: Request) => {
  const given = request.headers.get("x-request-id");
  return given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
};

export function requestLog(requestId: string, request: Request): RequestLog {
  const where = `[api ${requestId}] ${request.method} ${new URL(request.url).pathname}`;
  return {
    error: (message, error) => console.error(`${where}: ${message}`, ...(error === undefined ? [] : [error])),
    warn: (message, error) =>
      console.warn(`${where}: ${message}${error === undefined ? "" : `: ${errorMessageOf(error)}`}`),
  };
}
