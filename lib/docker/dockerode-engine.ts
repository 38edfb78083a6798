import Docker from "dockerode";
import { PassThrough, type Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type {
  BuildImageOptions,
  DockerEngine,
  DockerStatus,
  ImageInfo,
  LabelledContainer,
  RunContainerOptions,
  RunContainerResult,
} from "./docker-engine";
import { createBuildCgroup, isLocalEngine, type BuildCgroup, type EngineCgroupInfo } from "./build-cgroup";
import { DockerUnavailableError, EngineStoppedError, ImageBuildError, isConnectionError, RecipeRefusedError, statusCodeOf, containerAlreadyGone } from "./docker-errors";
import { reviewDockerfile } from "./dockerfile-policy";
import { LABEL_MANAGED } from "./container-labels";
import { tarFiles } from "./tar-files";
import { sandboxCommand, sandboxHostConfig, sandboxInput, testUserOf, workTreeOf, type ImageFacts } from "./container-sandbox";
import { configFrom, serverConfig, type EnvironmentSource } from "../config/server-config";
import { logFailure } from "../errors/log-failure";

const PING_TIMEOUT_MS = 3_000;
const LOG_DRAIN_TIMEOUT_MS = 20_000;
const CPU_PERIOD_US = 100_000;
const DEFAULT_DISK_MB = 1024;
const DISK_WATCH_EVERY_MS = 2_000;

export function dockerEndpoint(dockerHost = serverConfig().DOCKER_HOST): string {
  return dockerHost || "unix:///var/run/docker.sock";
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what} timed out after ${ms} ms`), { code: "ETIMEDOUT" })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

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

type BuildEvent = { stream?: string; error?: string; errorDetail?: { message?: string }; aux?: { ID?: string } };

function dockerodeOptions(dockerHost: string | undefined, fromProcess: boolean): Docker.DockerOptions | undefined {
  // with no options docker-modem reads DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH itself
  if (fromProcess || !dockerHost) return dockerHost ? undefined : { socketPath: "/var/run/docker.sock" };
  const url = new URL(dockerHost);
  if (url.protocol === "unix:") return { socketPath: url.pathname };
  return { protocol: url.protocol === "https:" ? "https" : "http", host: url.hostname, port: Number(url.port || 2375) };
}

/** dockerode behind our DockerEngine interface. DOCKER_HOST or the default socket. */
export function createDockerEngine(source?: EnvironmentSource): DockerEngine {
  const { DOCKER_HOST } = configFrom(source);
  const docker = new Docker(dockerodeOptions(DOCKER_HOST, !source));
  const endpoint = dockerEndpoint(DOCKER_HOST);

  /** Connection failures become a DockerUnavailableError naming the endpoint. */
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

  async function imageInfo(tag: string): Promise<ImageInfo | null> {
    try {
      const info = await call(() => docker.getImage(tag).inspect());
      return { id: info.Id, createdAt: new Date(info.Created), sizeBytes: info.Size };
    } catch (error) {
      if (statusCodeOf(error) === 404) return null;
      throw error;
    }
  }

  let cgroupInfo: Promise<EngineCgroupInfo> | undefined;
  const engineCgroupInfo = () =>
    (cgroupInfo ??= call(() => docker.info()).then(
      (info: { CgroupDriver?: string; CgroupVersion?: string }) => ({ local: isLocalEngine(endpoint), cgroupDriver: info.CgroupDriver, cgroupVersion: info.CgroupVersion }),
      (error) => {
        cgroupInfo = undefined;
        throw error;
      },
    ));

  /** Refuses, before the daemon sees it, a recipe that would make the daemon download or pull. */
  async function refuseOutsideReach(options: BuildImageOptions) {
    const review = reviewDockerfile(options.dockerfile, options.buildArgs);
    const problems = [...review.problems];
    for (const needed of review.requiredImages) {
      if (await imageInfo(needed.image)) continue;
      problems.push(
        `Line ${needed.line}: ${needed.instruction} is not on the Docker engine at ${endpoint}, and builds never pull. Load it first (docker load), or start FROM an image that is there.`,
      );
    }
    if (problems.length) {
      for (const problem of problems) options.onOutput?.(`${problem}\n`);
      throw new RecipeRefusedError(problems);
    }
  }

  /** After a build broke off: was it the engine going away rather than the Dockerfile? */
  async function engineLost(cause: unknown): Promise<EngineStoppedError | null> {
    if (isConnectionError(cause) || !(await status()).reachable) return new EngineStoppedError(endpoint, "build", cause);
    return null;
  }

  async function buildImage(options: BuildImageOptions): Promise<{ imageId: string }> {
    await refuseOutsideReach(options);
    const { limits } = options;
    const cgroup = createBuildCgroup(await engineCgroupInfo(), limits.pids);
    if (cgroup.unlimitedBecause) options.onOutput?.(`[swe-curator] build steps have no pids limit here: ${cgroup.unlimitedBecause}\n`);
    const context = tarFiles({ ...options.contextFiles, Dockerfile: options.dockerfile });
    const memory = limits.memoryMb * 1024 * 1024;
    let stream: NodeJS.ReadableStream;
    try {
      stream = await call(() =>
        docker.buildImage(context, {
          t: options.tag,
          // builds have no network either: the context must carry everything
          networkmode: "none",
          pull: false,
          rm: true,
          forcerm: true,
          nocache: options.noCache ?? false,
          buildargs: options.buildArgs,
          labels: { [LABEL_MANAGED]: "true", ...options.labels },
          memory,
          memswap: memory,
          cpuperiod: CPU_PERIOD_US,
          cpuquota: Math.round(limits.cpus * CPU_PERIOD_US),
          ...(cgroup.parent ? { cgroupparent: cgroup.parent } : {}),
        } as Docker.ImageBuildOptions),
      );
    } catch (error) {
      await cgroup.remove();
      throw error;
    }
    // closing the connection makes the daemon stop the build and kill its running step
    const stop = (reason: string) => (stream as unknown as { destroy(error?: Error): void }).destroy(new Error(reason));
    let stoppedFor: string | undefined;
    const abort = () => stop("build cancelled");
    options.signal?.addEventListener("abort", abort, { once: true });
    const diskWatch = watchStepDisk(cgroup, limits.diskMb, (message) => {
      stoppedFor = message;
      stop(message);
    });
    let imageId: string | undefined;
    let failure: string | undefined;
    let streamError: unknown;
    try {
      await new Promise<void>((resolve) => {
        docker.modem.followProgress(
          stream,
          (error) => {
            streamError = error ?? undefined;
            resolve();
          },
          (event: BuildEvent) => {
            if (event.stream) options.onOutput?.(event.stream);
            if (event.aux?.ID) imageId = event.aux.ID;
            // a failed build does not reject: the error arrives as a progress event
            if (event.error || event.errorDetail) {
              failure = event.errorDetail?.message || event.error || "build failed";
              options.onOutput?.(`${failure}\n`);
            }
          },
        );
      });
    } finally {
      clearInterval(diskWatch);
      options.signal?.removeEventListener("abort", abort);
      // a stopped build's running step is the daemon's to remove, but it does so lazily: reap it now
      for (const id of cgroup.containerIds()) await docker.getContainer(id).remove({ force: true }).catch(logFailure(`removing build step container ${id}`, { expected: containerAlreadyGone }));
      await cgroup.remove();
    }
    if (options.signal?.aborted) throw new ImageBuildError("The build was cancelled");
    if (stoppedFor) throw new ImageBuildError(stoppedFor);
    if (streamError || failure || !imageId) {
      const lost = await engineLost(streamError);
      if (lost) throw lost;
    }
    if (streamError) throw new ImageBuildError(`The build broke off: ${(streamError as Error).message}`);
    if (failure) throw new ImageBuildError(failure);
    imageId ??= (await imageInfo(options.tag))?.id;
    if (!imageId) throw new ImageBuildError(`The build finished but image ${options.tag} is missing`);
    return { imageId };
  }

  /** Stops a build whose running step's writable layer outgrows the disk limit (Docker has no quota on overlay2 without xfs). */
  function watchStepDisk(cgroup: BuildCgroup, diskMb: number, stopBuild: (message: string) => void): NodeJS.Timeout {
    let busy = false;
    return setInterval(async () => {
      if (busy) return;
      busy = true;
      try {
        for (const id of cgroup.containerIds()) {
          const info = (await docker.getContainer(id).inspect({ size: true } as object).catch(() => null)) as { SizeRw?: number } | null;
          if ((info?.SizeRw ?? 0) > diskMb * 1024 * 1024) stopBuild(`A build step wrote more than its ${diskMb} MB disk limit and was stopped`);
        }
      } finally {
        busy = false;
      }
    }, DISK_WATCH_EVERY_MS);
  }

  async function imageFacts(image: string): Promise<ImageFacts> {
    const info = await call(() => docker.getImage(image).inspect());
    return { workingDir: info.Config?.WorkingDir ?? "", user: info.Config?.User ?? "", labels: info.Config?.Labels ?? {} };
  }

  async function runContainer(options: RunContainerOptions): Promise<RunContainerResult> {
    const { limits } = options;
    const facts = await imageFacts(options.image);
    const workTree = options.workingDir ?? workTreeOf(facts);
    const user = testUserOf(facts);
    const container = await call(() =>
      docker.createContainer({
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
      }),
    );
    const startedAt = Date.now();
    // from here on a lost connection means the engine went away under a running container
    const callDuringRun = async <T>(fn: () => Promise<T>): Promise<T> => {
      try {
        return await fn();
      } catch (error) {
        if (isConnectionError(error)) throw new EngineStoppedError(endpoint, "run", error, container.id);
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
      const workTreeArchive = workTree ? await call(() => container.getArchive({ path: workTree })).catch((error) => (statusCodeOf(error) === 404 ? null : Promise.reject(error))) : null;
      // attach before start, or the first lines are lost
      const stream = await call(() => container.attach({ stream: true, stdin: true, hijack: true, stdout: true, stderr: true }));
      const sink = textSink((text) => options.onOutput?.(text));
      const streamEnded = new Promise<void>((resolve) => {
        stream.on("end", resolve);
        stream.on("close", resolve);
        stream.on("error", () => resolve());
      });
      container.modem.demuxStream(stream, sink, sink);
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
      const exit = cancelled ? null : await callDuringRun(() => container.wait());
      clearTimeout(timer);
      if (exit && !timedOut && !cancelled && exit.StatusCode > 128 && (await killedFromOutside(container.id, startedAt))) {
        throw new EngineStoppedError(endpoint, "run", Object.assign(new Error("killed"), { code: "KILLED" }), container.id);
      }
      // the attach stream closes just after the exit, but may still be delivering the last
      // output (a loaded host lags by seconds): wait for it, yet never hang on a daemon that keeps it open
      const drained = await withTimeout(streamEnded, LOG_DRAIN_TIMEOUT_MS, "log stream").then(
        () => true,
        () => false,
      );
      if (!drained) options.onOutput?.(`\n[swe-curator] the log stream did not close within ${LOG_DRAIN_TIMEOUT_MS / 1000} s of the exit; output may be cut\n`);
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

  /** Whether someone other than us (the engine shutting down, an admin) sent the container a kill. */
  async function killedFromOutside(id: string, since: number): Promise<boolean> {
    const events = await docker
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
    return text.includes('"kill"') || !(await status()).reachable;
  }

  async function listLabelledContainers(): Promise<LabelledContainer[]> {
    const containers = await call(() => docker.listContainers({ all: true, filters: { label: [`${LABEL_MANAGED}=true`] } }));
    return containers.map((c) => ({ id: c.Id, labels: c.Labels ?? {}, state: c.State, createdAt: new Date(c.Created * 1000) }));
  }

  async function removeContainer(id: string): Promise<void> {
    try {
      await call(() => docker.getContainer(id).remove({ force: true }));
    } catch (error) {
      if (statusCodeOf(error) !== 404) throw error;
    }
  }

  async function pruneDanglingImages(budgetBytes: number, options: { alsoLabelled?: string } = {}) {
    // only images we built: a user's own dangling images on the same engine are not ours to remove
    const label = [`${LABEL_MANAGED}=true`, ...(options.alsoLabelled ? [options.alsoLabelled] : [])];
    const images = await call(() => docker.listImages({ filters: { dangling: ["true"], label } }));
    let total = images.reduce((sum, image) => sum + image.Size, 0);
    let removed = 0;
    let freedBytes = 0;
    for (const image of [...images].sort((a, b) => a.Created - b.Created)) {
      if (total <= budgetBytes) break;
      try {
        await call(() => docker.getImage(image.Id).remove());
        total -= image.Size;
        freedBytes += image.Size;
        removed++;
      } catch (error) {
        // an image a container still uses cannot go; the next prune will try again
        if (statusCodeOf(error) !== 409 && statusCodeOf(error) !== 404) throw error;
      }
    }
    return { removed, freedBytes };
  }

  return { endpoint, status, imageInfo, buildImage, runContainer, listLabelledContainers, removeContainer, pruneDanglingImages };
}
