/** Docker did not answer: every job that needs it fails (INFRA_ERROR) with this message. */
export class DockerUnavailableError extends Error {
  constructor(
    readonly endpoint: string,
    cause: unknown,
  ) {
    super(`Docker engine not reachable at ${endpoint}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "DockerUnavailableError";
  }
}

/** The Dockerfile did not build: the build log says why. */
export class ImageBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImageBuildError";
  }
}

const CONNECTION_CODES = new Set(["ENOENT", "ECONNREFUSED", "ECONNRESET", "EACCES", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"]);

export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return typeof code === "string" && CONNECTION_CODES.has(code);
}

export const statusCodeOf = (error: unknown) => (error as { statusCode?: number } | null)?.statusCode;
