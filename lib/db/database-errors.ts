// Whether an error means "the database is not there right now" (restarting, shutting down,
// unreachable, out of connections) rather than "this query is wrong". Callers answer 503 or
// retry later instead of failing for good. Errors reach us raw from pg, or wrapped by
// Prisma's driver adapter (meta.driverAdapterError.cause.kind / code).

// SQLSTATE class 08 (connection exception), 57P01-03 (admin/crash shutdown, cannot connect now), 53300 (too many connections)
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);
const UNAVAILABLE_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
// P1001 can't reach, P1002 timed out, P1017 server closed the connection, P2024 pool timeout
const UNAVAILABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1017", "P2024"]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|Can't reach database server|Server has closed the connection|timeout exceeded when trying to connect|the database system is (shutting down|starting up|not yet accepting connections|in recovery mode)|terminating connection due to administrator command/i;

type Inspectable = {
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
  errors?: unknown;
};

function* causes(error: unknown, depth = 0): Generator<Inspectable> {
  if (!error || typeof error !== "object" || depth > 6) return;
  const e = error as Inspectable;
  yield e;
  yield* causes(e.cause, depth + 1);
  yield* causes(e.meta?.driverAdapterError, depth + 1);
  if (Array.isArray(e.errors)) for (const inner of e.errors) yield* causes(inner, depth + 1);
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    const code = typeof e.code === "string" ? e.code : "";
    if (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET_CODES.has(code) || UNAVAILABLE_PRISMA_CODES.has(code))
      return true;
    if (typeof e.kind === "string" && UNAVAILABLE_ADAPTER_KINDS.has(e.kind)) return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/** A sentence for a curator: the database was away, without Prisma's multi-line invocation dump. */
export function databaseUnavailableMessage(error: unknown): string {
  for (const e of causes(error)) {
    if (typeof e.kind === "string" && UNAVAILABLE_ADAPTER_KINDS.has(e.kind))
      return `the database was unavailable (${e.kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()})`;
    if (typeof e.code === "string" && UNAVAILABLE_SQLSTATE.test(e.code) && typeof e.message === "string")
      return `the database was unavailable (${e.code} ${e.message})`;
  }
  return "the database was unavailable";
}
