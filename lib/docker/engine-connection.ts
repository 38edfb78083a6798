import Docker from "dockerode";
import type { DockerStatus } from "./docker-engine";
import { DockerUnavailableError, isConnectionError } from "./docker-errors";
import { engineHealth } from "./engine-health";
import { configFrom, serverConfig, type EnvironmentSource } from "../config/server-config";

// How we reach one Docker engine: the dockerode client for DOCKER_HOST (or the default socket),
// its endpoint for messages, and the translation of connection failures into a
// DockerUnavailableError that names the endpoint.

/** how long a status ping (or another short question to the engine) may take */
export const PING_TIMEOUT_MS = 3_000;

export type EngineConnection = {
  docker: Docker;
  /** where we talk to Docker, for messages */
  endpoint: string;
  /** runs a dockerode call; a connection failure becomes a DockerUnavailableError naming the endpoint */
  call<T>(fn: () => Promise<T>): Promise<T>;
  /** a ping with a short timeout: never throws */
  status(): Promise<DockerStatus>;
};

export function dockerEndpoint(dockerHost = serverConfig().DOCKER_HOST): string {
  return dockerHost || "unix:///var/run/docker.sock";
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`${what} timed out after ${ms} ms`), { code: "ETIMEDOUT" })),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** How often a long call checks that its engine still answers, and how many missed checks in a row end it. */
export const ENGINE_WATCH = { everyMs: 2_000, missedChecks: 3 };

/**
 * A long call to the engine (a container's wait, a build's or a pull's stream) that gives up
 * once the engine stops answering: a connection to a killed engine does not always end, and
 * a worker left waiting on it would renew its run's lease for ever, so the run never moved to
 * another engine. `gone` makes the error the call fails with.
 */
export function whileEngineAnswers<T>(
  engine: Pick<EngineConnection, "status">,
  work: Promise<T>,
  gone: (cause: Error) => Error,
  watch = ENGINE_WATCH,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  // the same rule as the pool's view of an engine; it answered when the call began
  const health = engineHealth(watch.missedChecks);
  health.record(true);
  const stopped = new Promise<never>((_, reject) => {
    let checking = false;
    timer = setInterval(async () => {
      if (checking) return;
      checking = true;
      const { reachable } = await engine.status();
      checking = false;
      if (!health.record(reachable))
        reject(
          gone(
            Object.assign(new Error(`the engine missed ${watch.missedChecks} checks in a row`), {
              code: "ENGINE_GONE",
            }),
          ),
        );
    }, watch.everyMs);
  });
  return Promise.race([work, stopped]).finally(() => clearInterval(timer));
}

function dockerodeOptions(dockerHost: string | undefined, fromProcess: boolean): Docker.DockerOptions | undefined {
  // with no options docker-modem reads DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH itself
  if (fromProcess || !dockerHost) return dockerHost ? undefined : { socketPath: "/var/run/docker.sock" };
  const url = new URL(dockerHost);
  if (url.protocol === "unix:") return { socketPath: url.pathname };
  return { protocol: url.protocol === "https:" ? "https" : "http", host: url.hostname, port: Number(url.port || 2375) };
}

/** The engine of DOCKER_HOST in the given environment (the process's configuration when none is given). */
export function connectToEngine(source?: EnvironmentSource): EngineConnection {
  const { DOCKER_HOST } = configFrom(source);
  const docker = new Docker(dockerodeOptions(DOCKER_HOST, !source));
  const endpoint = dockerEndpoint(DOCKER_HOST);

  async function call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (isConnectionError(error)) throw new DockerUnavailableError(endpoint, error);
      throw error;
    }
  }

  async function status(): Promise<DockerStatus> {
    try {
      const version = await withTimeout(docker.version(), PING_TIMEOUT_MS, "docker version");
      return { reachable: true, endpoint, version: version.Version };
    } catch (error) {
      return { reachable: false, endpoint, error: new DockerUnavailableError(endpoint, error).message };
    }
  }

  return { docker, endpoint, call, status };
}
