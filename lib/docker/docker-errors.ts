export const statusCodeOf = (error: unknown) => (error as { statusCode?: number } | null)?.statusCode;

/** A kill or remove that found the container already stopped, gone, or being removed: nothing left to do. */
export const containerAlreadyGone = (error: unknown) => statusCodeOf(error) === 404 || statusCodeOf(error) === 409;

const PLAIN_CAUSES: Record<string, string> = {
  ENOENT: "there is no engine socket there",
  ECONNREFUSED: "nothing accepts connections there",
  ECONNRESET: "the engine dropped the connection",
  EPIPE: "the engine dropped the connection",
  EACCES: "this user may not open the engine's socket",
  ETIMEDOUT: "the engine did not answer in time",
  EHOSTUNREACH: "its host cannot be reached",
  ENOTFOUND: "its host name does not resolve",
};

/** Words for a connection failure, instead of the socket library's text. */
export function plainConnectionCause(cause: unknown): string {
  // the engine's own account, when a watch got one (a container it stopped or forgot)
  const plain = (cause as { plain?: unknown } | null)?.plain;
  if (typeof plain === "string") return plain;
  const code = (cause as { code?: string } | null)?.code;
  if (statusCodeOf(cause) === 500) return "the engine was shutting down";
  return (code && PLAIN_CAUSES[code]) || "it did not answer";
}

/** Docker did not answer: every job that needs it fails (INFRA_ERROR) with this message. */
export class DockerUnavailableError extends Error {
  constructor(
    readonly endpoint: string,
    cause: unknown,
  ) {
    super(`Docker engine not reachable at ${endpoint}: ${plainConnectionCause(cause)}`);
    this.name = "DockerUnavailableError";
  }
}

/**
 * The engine went away while our container or build was running (it was stopped or
 * restarted, or it killed the container from outside). Nothing the container printed may
 * be judged: the job is handed back as an outage (lib/worker-runtime/retry-after-outage.ts).
 */
export class EngineStoppedError extends DockerUnavailableError {
  constructor(
    endpoint: string,
    readonly during: "build" | "run",
    cause: unknown,
    /** the container the engine left behind (the retry reaps it) */
    readonly containerId?: string,
  ) {
    super(endpoint, cause);
    this.message =
      during === "run"
        ? `The Docker engine at ${endpoint} stopped the container before the tests finished (${plainConnectionCause(cause)}); nothing it printed is judged`
        : `The Docker engine at ${endpoint} stopped during the build (${plainConnectionCause(cause)})`;
    this.name = "EngineStoppedError";
  }
}

/** The Dockerfile did not build: the build log says why. */
export class ImageBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImageBuildError";
  }
}

/** The recipe asks the engine to reach outside (a URL source, an image it lacks): refused before the build starts. */
export class RecipeRefusedError extends ImageBuildError {
  constructor(readonly problems: string[]) {
    super(`The recipe was refused before building: ${problems.join(" ")}`);
    this.name = "RecipeRefusedError";
  }
}

const CONNECTION_CODES = new Set([
  "ENOENT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EACCES",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
]);

// what the daemon answers while it shuts down, before its socket closes
const SHUTTING_DOWN = /context canceled|connection is closing|shutting down|transport is closing/i;

export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  if (typeof code === "string" && CONNECTION_CODES.has(code)) return true;
  return statusCodeOf(error) === 500 && SHUTTING_DOWN.test(error instanceof Error ? error.message : String(error));
}
