import type Docker from "dockerode";
import { PassThrough, type Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { RunContainerOptions, RunContainerResult } from "./docker-engine";
import { containerAlreadyGone, EngineStoppedError, isConnectionError, statusCodeOf } from "./docker-errors";
import { sandboxCommand, sandboxHostConfig, sandboxInput, testUserOf, workTreeOf } from "./container-sandbox";
import { PING_TIMEOUT_MS, whileEngineAnswers, withTimeout, type EngineConnection } from "./engine-connection";
import { imageFacts } from "./engine-inventory";
import { logFailure } from "../errors/log-failure";

// Running a command in a locked-down container: create it (no network, limits, the sandbox's
// read-only root), copy the files in, stream its output, kill it on timeout or cancel, and
// tell a container the engine stopped from one that exited by itself.

const LOG_DRAIN_TIMEOUT_MS = 20_000;
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
function sandboxedContainerSpec(options: RunContainerOptions, user: string, workTree: string): Docker.ContainerCreateOptions {
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
  const stream = await engine.call(() => container.attach({ stream: true, stdin: true, hijack: true, stdout: true, stderr: true }));
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
  if (!drained) onOutput?.(`\n[swe-curator] the log stream did not close within ${LOG_DRAIN_TIMEOUT_MS / 1000} s of the exit; output may be cut\n`);
}

/** Whether someone other than us (the engine shutting down, an admin) sent the container a kill. */
async function killedFromOutside(engine: EngineConnection, id: string, since: number): Promise<boolean> {
  const events = await engine.docker
    .getEvents({ since: Math.floor(since / 1000) - 1, until: Math.ceil(Date.now() / 1000), filters: { container: [id], event: ["kill"] } } as object)
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

export async function runContainer(engine: EngineConnection, options: RunContainerOptions): Promise<RunContainerResult> {
  const { limits } = options;
  const facts = await imageFacts(engine, options.image);
  const workTree = options.workingDir ?? workTreeOf(facts);
  const container = await engine.call(() => engine.docker.createContainer(sandboxedContainerSpec(options, testUserOf(facts), workTree)));
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
  const kill = () => container.kill({ signal: "SIGKILL" }).catch(logFailure(`killing container ${container.id}`, { expected: containerAlreadyGone }));
  const onAbort = () => {
    cancelled = true;
    void kill();
  };
  try {
    await options.onCreated?.(container.id);
    // the created container still shows the image's work tree (the tmpfs covers it only once started)
    const workTreeArchive = workTree ? await engine.call(() => container.getArchive({ path: workTree })).catch((error) => (statusCodeOf(error) === 404 ? null : Promise.reject(error))) : null;
    const { stream, sink, streamEnded } = await attachOutput(engine, container, options.onOutput);
    if (options.signal?.aborted) {
      cancelled = true;
    } else {
      options.signal?.addEventListener("abort", onAbort, { once: true });
      await callDuringRun(() => container.start());
      sandboxInput(workTreeArchive as Readable | null, workTree, options.files ?? {}).pipe(stream as unknown as NodeJS.WritableStream);
      timer = setTimeout(() => {
        timedOut = true;
        void kill();
      }, limits.timeoutMs);
    }
    const exit = cancelled ? null : await callDuringRun(() => whileEngineAnswers(engine, container.wait(), (cause) => new EngineStoppedError(engine.endpoint, "run", cause, container.id)));
    clearTimeout(timer);
    if (exit && !timedOut && !cancelled && exit.StatusCode > 128 && (await killedFromOutside(engine, container.id, startedAt))) {
      throw new EngineStoppedError(engine.endpoint, "run", Object.assign(new Error("killed"), { code: "KILLED" }), container.id);
    }
    await drainOutput(streamEnded, options.onOutput);
    sink.end();
    const state = (await callDuringRun(() => container.inspect())).State;
    return {
      containerId: container.id,
      exitCode: exit ? exit.StatusCode : null,
      timedOut,
      cancelled,
      oomKilled: !!state.OOMKilled,
      durationMs: Date.now() - startedAt,
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    await container.remove({ force: true, v: true }).catch(logFailure(`removing container ${container.id}`, { expected: containerAlreadyGone }));
  }
}
