import type Docker from "dockerode";
import { PassThrough, type Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { RunContainerOptions, RunContainerResult } from "./docker-engine";
import { containerAlreadyGone, EngineStoppedError, isConnectionError, statusCodeOf } from "./docker-errors";
import {
  reportsOomKill,
  sandboxCommand,
  sandboxHostConfig,
  sandboxInput,
  testUserOf,
  workTreeOf,
} from "./container-sandbox";
import {
  ENGINE_WATCH,
  PING_TIMEOUT_MS,
  whileEngineAnswers,
  withTimeout,
  type EngineConnection,
} from "./engine-connection";
import { imageFacts } from "./engine-inventory";
import { logFailure } from "../errors/log-failure";

// Running a command in a locked-down container: create it (no network, limits, the sandbox's
// read-only root), copy the files in, stream its output, kill it on timeout or cancel, and
// tell a container the engine stopped from one that exited by itself.

const LOG_DRAIN_TIMEOUT_MS = 20_000;
/** the output's end kept to read the setup step's last words (its out-of-memory report) */
const OUTPUT_TAIL_CHARS = 4096;
const DEFAULT_DISK_MB = 1024;

/** A text sink for a byte stream that may split UTF-8 characters across chunks. */
function textSink(onText: (text: string) => void): PassThrough {
  const decoder = new StringDecoder("utf8");
  const sink = new PassThrough();
  sink.on("data", (chunk: Buffer) => {
    const text = decoder.write(chunk);
    if (text) onText(text);
  });
  sink.on("end", () => {
    const rest = decoder.end();
    if (rest) onText(rest);
  });
  return sink;
}

/** The container as the sandbox wants it: root only to set up, the tests as the image's user, no network, the limits. */
function sandboxedContainerSpec(
  options: RunContainerOptions,
  user: string,
  workTree: string,
): Docker.ContainerCreateOptions {
  const { limits } = options;
  return {
    Image: options.image,
    Cmd: sandboxCommand(options.command, { user, timeoutMs: limits.timeoutMs, workTree }),
    Entrypoint: [],
    User: "0:0",
    WorkingDir: options.workingDir,
    Env: Object.entries(options.env ?? {}).map(([key, value]) => `${key}=${value}`),
    Labels: options.labels,
    Tty: false,
    OpenStdin: true,
    StdinOnce: true,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    NetworkDisabled: true,
    HostConfig: {
      NetworkMode: "none",
      Memory: limits.memoryMb * 1024 * 1024,
      MemorySwap: limits.memoryMb * 1024 * 1024,
      NanoCpus: Math.round(limits.cpus * 1e9),
      PidsLimit: limits.pids,
      Privileged: false,
      SecurityOpt: ["no-new-privileges"],
      AutoRemove: false,
      ...sandboxHostConfig(limits.diskMb ?? DEFAULT_DISK_MB, workTree),
    },
  };
}

/** Attaches to the container's stdin and output (before start, or the first lines are lost); streamEnded settles when the output stops. */
async function attachOutput(engine: EngineConnection, container: Docker.Container, onOutput?: (text: string) => void) {
  const stream = await engine.call(() =>
    container.attach({ stream: true, stdin: true, hijack: true, stdout: true, stderr: true }),
  );
  const sink = textSink((text) => onOutput?.(text));
  const streamEnded = new Promise<void>((resolve) => {
    stream.on("end", resolve);
    stream.on("close", resolve);
    stream.on("error", () => resolve());
  });
  container.modem.demuxStream(stream, sink, sink);
  return { stream, sink, streamEnded };
}

/**
 * The attach stream closes just after the exit, but may still be delivering the last output (a
 * loaded host lags by seconds): wait for it, yet never hang on a daemon that keeps it open.
 */
async function drainOutput(streamEnded: Promise<void>, onOutput?: (text: string) => void) {
  const drained = await withTimeout(streamEnded, LOG_DRAIN_TIMEOUT_MS, "log stream").then(
    () => true,
    () => false,
  );
  if (!drained)
    onOutput?.(
      `\n[swe-curator] the log stream did not close within ${LOG_DRAIN_TIMEOUT_MS / 1000} s of the exit; output may be cut\n`,
    );
}

/** Whether someone other than us (the engine shutting down, an admin) sent the container a kill. */
async function killedFromOutside(engine: EngineConnection, id: string, since: number): Promise<boolean> {
  const events = await engine.docker
    .getEvents({
      since: Math.floor(since / 1000) - 1,
      until: Math.ceil(Date.now() / 1000),
      filters: { container: [id], event: ["kill"] },
    } as object)
    .catch(() => null);
  // no answer at all: the engine is gone, which is an outside stop too
  if (!events) return true;
  const text = await withTimeout(
    new Promise<string>((resolve) => {
      let all = "";
      (events as NodeJS.ReadableStream).on("data", (chunk: Buffer) => (all += chunk.toString()));
      (events as NodeJS.ReadableStream).on("end", () => resolve(all));
    }),
    PING_TIMEOUT_MS,
    "docker events",
  ).catch(() => "");
  return text.includes('"kill"') || !(await engine.status()).reachable;
}

/** Checks in a row that may find the container stopped while its wait is still pending, before the wait counts as lost. */
const LOST_WAIT_CHECKS = 5;

/**
 * Watches the container while its wait is pending. An engine stopped and started again between
 * two of whileEngineAnswers' checks drops the wait without ending it, and the worker would wait
 * until its own timer called that a timeout. A healthy engine settles a wait as soon as the
 * container stops, so a container found stopped (or unknown) check after check while the wait
 * is pending was lost with the engine: the watch fails with the engine's own account of it.
 * `blinked` tells whether the engine missed a check meanwhile.
 */
function watchContainer(
  engine: EngineConnection,
  container: Pick<Docker.Container, "id" | "inspect">,
  everyMs: number,
) {
  let timer: NodeJS.Timeout | undefined;
  let blinked = false;
  const lost = new Promise<never>((_, reject) => {
    let stoppedChecks = 0;
    let checking = false;
    timer = setInterval(async () => {
      if (checking) return;
      checking = true;
      try {
        const info = await withTimeout(container.inspect(), PING_TIMEOUT_MS, "docker inspect");
        stoppedChecks = info.State.Running ? 0 : stoppedChecks + 1;
        if (stoppedChecks >= LOST_WAIT_CHECKS) {
          const { Status, ExitCode, FinishedAt, Error: stateError } = info.State;
          const words = `the engine says the container is ${Status} with exit code ${ExitCode} since ${FinishedAt}${stateError ? ` (${stateError})` : ""}, yet never answered our wait for it`;
          reject(
            new EngineStoppedError(
              engine.endpoint,
              "run",
              Object.assign(new Error(words), { code: "WAIT_LOST", plain: words }),
              container.id,
            ),
          );
        }
      } catch (error) {
        if (statusCodeOf(error) === 404) {
          const words = `the engine no longer knows the container: ${(error as Error).message}`;
          reject(
            new EngineStoppedError(
              engine.endpoint,
              "run",
              Object.assign(new Error(words), { code: "CONTAINER_LOST", plain: words }),
              container.id,
            ),
          );
        } else if (isConnectionError(error) && (error as { code?: string }).code !== "ETIMEDOUT") {
          // the socket refused or vanished: the engine was down (a slow answer on a busy host is not that)
          blinked = true;
        }
      } finally {
        checking = false;
      }
    }, everyMs);
  });
  return { lost, blinked: () => blinked, stop: () => clearInterval(timer) };
}

/** The container's exit, while watching both the engine and the container; whether the engine missed a check meanwhile. */
export async function waitForExit(
  engine: EngineConnection,
  container: Pick<Docker.Container, "id" | "wait" | "inspect">,
  watchEveryMs = ENGINE_WATCH.everyMs,
): Promise<{ exit: { StatusCode: number }; blinked: boolean }> {
  const watch = watchContainer(engine, container, watchEveryMs);
  try {
    const exit = await whileEngineAnswers(
      engine,
      Promise.race([container.wait(), watch.lost]),
      (cause) => new EngineStoppedError(engine.endpoint, "run", cause, container.id),
    );
    return { exit, blinked: watch.blinked() };
  } finally {
    watch.stop();
  }
}

export async function runContainer(
  engine: EngineConnection,
  options: RunContainerOptions,
): Promise<RunContainerResult> {
  const { limits } = options;
  const facts = await imageFacts(engine, options.image);
  const workTree = options.workingDir ?? workTreeOf(facts);
  const container = await engine.call(() =>
    engine.docker.createContainer(sandboxedContainerSpec(options, testUserOf(facts), workTree)),
  );
  const startedAt = Date.now();
  // from here on a lost connection means the engine went away under a running container
  const callDuringRun = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      if (isConnectionError(error)) throw new EngineStoppedError(engine.endpoint, "run", error, container.id);
      throw error;
    }
  };
  let timedOut = false;
  let cancelled = false;
  let timer: NodeJS.Timeout | undefined;
  let outputTail = "";
  const onOutput = (text: string) => {
    outputTail = (outputTail + text).slice(-OUTPUT_TAIL_CHARS);
    options.onOutput?.(text);
  };
  const kill = () =>
    container
      .kill({ signal: "SIGKILL" })
      .catch(logFailure(`killing container ${container.id}`, { expected: containerAlreadyGone }));
  const onAbort = () => {
    cancelled = true;
    void kill();
  };
  try {
    await options.onCreated?.(container.id);
    // the created container still shows the image's work tree (the tmpfs covers it only once started)
    const workTreeArchive = workTree
      ? await engine
          .call(() => container.getArchive({ path: workTree }))
          .catch((error) => (statusCodeOf(error) === 404 ? null : Promise.reject(error)))
      : null;
    const { stream, sink, streamEnded } = await attachOutput(engine, container, onOutput);
    if (options.signal?.aborted) {
      cancelled = true;
    } else {
      options.signal?.addEventListener("abort", onAbort, { once: true });
      await callDuringRun(() => container.start());
      sandboxInput(workTreeArchive as Readable | null, workTree, options.files ?? {}).pipe(
        stream as unknown as NodeJS.WritableStream,
      );
      timer = setTimeout(() => {
        timedOut = true;
        void kill();
      }, limits.timeoutMs);
    }
    const { exit, blinked } = cancelled
      ? { exit: null, blinked: false }
      : await callDuringRun(() => waitForExit(engine, container));
    clearTimeout(timer);
    // a signal we did not send: the engine stopped it (on its way down, or an admin did), or the engine blinked under it
    if (
      exit &&
      !timedOut &&
      !cancelled &&
      exit.StatusCode > 128 &&
      (blinked || (await killedFromOutside(engine, container.id, startedAt)))
    ) {
      throw new EngineStoppedError(
        engine.endpoint,
        "run",
        Object.assign(new Error("killed"), { code: "KILLED" }),
        container.id,
      );
    }
    await drainOutput(streamEnded, onOutput);
    sink.end();
    const state = (await callDuringRun(() => container.inspect())).State;
    return {
      containerId: container.id,
      exitCode: exit ? exit.StatusCode : null,
      timedOut,
      cancelled,
      oomKilled: !!state.OOMKilled || reportsOomKill(outputTail),
      durationMs: Date.now() - startedAt,
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    await container
      .remove({ force: true, v: true })
      .catch(logFailure(`removing container ${container.id}`, { expected: containerAlreadyGone }));
  }
}
