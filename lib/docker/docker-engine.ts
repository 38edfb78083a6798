// The small interface the rest of the product sees; createDockerEngine (dockerode-engine.ts) is
// the only implementation, and lib/docker the only code that talks to Docker.

export type ContainerLimits = {
  memoryMb: number;
  cpus: number;
  pids: number;
  timeoutMs: number;
  /** size of each writable place (the work tree, /tmp): the container's disk quota; default 1024 */
  diskMb?: number;
};

/** The limits of every RUN step of a build; its time limit and cancel come through the signal. */
export type BuildLimits = { memoryMb: number; cpus: number; pids: number; diskMb: number };

export type FileTree = Record<string, string | Buffer | { content: string | Buffer; mode: number }>;

export type BuildImageOptions = {
  tag: string;
  dockerfile: string;
  /** build-context files besides the Dockerfile, path → content */
  contextFiles: FileTree;
  buildArgs?: Record<string, string>;
  labels?: Record<string, string>;
  limits: BuildLimits;
  /** rebuild every layer instead of using the build cache */
  noCache?: boolean;
  /** the Docker network the build's steps use: "none" unless a spec build on an engine an admin allowed one */
  network?: string;
  onOutput?: (text: string) => void;
  signal?: AbortSignal;
};

export type RunContainerOptions = {
  image: string;
  command: string[];
  /** files copied into the container (at their absolute paths) before it starts */
  files?: FileTree;
  labels: Record<string, string>;
  limits: ContainerLimits;
  workingDir?: string;
  env?: Record<string, string>;
  onOutput?: (text: string) => void;
  onCreated?: (containerId: string) => void | Promise<void>;
  signal?: AbortSignal;
};

export type RunContainerResult = {
  containerId: string;
  exitCode: number | null;
  timedOut: boolean;
  cancelled: boolean;
  oomKilled: boolean;
  durationMs: number;
};

/** A file read out of an image: its bytes, or why it was not read. */
export type ImageFile = { content: Buffer } | { skipped: string };

export type ReadImageFilesOptions = {
  image: string;
  /** relative to the image's WORKDIR (the repository's work tree) */
  paths: string[];
  /** a larger file is not read, only reported */
  maxBytes: number;
  labels: Record<string, string>;
};

export type ImageInfo = { id: string; createdAt: Date; sizeBytes: number };

export type LabelledContainer = { id: string; labels: Record<string, string>; state: string; createdAt: Date };

export type DockerStatus =
  { reachable: true; endpoint: string; version: string } | { reachable: false; endpoint: string; error: string };

/** An engine's capacity and holdings, as its worker reports them in its heartbeat. */
export type EngineFacts = {
  memoryBytes: number;
  /** the memory limits of our containers running there now */
  reservedMemoryBytes: number;
  imagesHeld: number;
  /** the build-context hashes of the environment images it holds */
  environmentImageHashes: string[];
  /** free space where the engine keeps its images; null when the engine is on another machine */
  freeDiskBytes: number | null;
};

export interface DockerEngine {
  /** where we talk to Docker, for messages: DOCKER_HOST or the default socket */
  readonly endpoint: string;
  status(): Promise<DockerStatus>;
  imageInfo(tag: string): Promise<ImageInfo | null>;
  buildImage(options: BuildImageOptions): Promise<{ imageId: string }>;
  runContainer(options: RunContainerOptions): Promise<RunContainerResult>;
  /** files of an image's work tree, read from a created (never started, networkless) container */
  readImageFiles(options: ReadImageFilesOptions): Promise<Record<string, ImageFile>>;
  listLabelledContainers(): Promise<LabelledContainer[]>;
  removeContainer(id: string): Promise<void>;
  /** removes dangling images this product built (labelled; narrowed further by alsoLabelled, "key=value"), oldest first, until their total size is within the budget */
  pruneDanglingImages(
    budgetBytes: number,
    options?: { alsoLabelled?: string },
  ): Promise<{ removed: number; freedBytes: number }>;
  facts(): Promise<EngineFacts>;
  /** pushes a local image to the pool's registry (host[:port]) under the same name */
  pushImage(tag: string, registryHost: string, signal?: AbortSignal): Promise<void>;
  /** pulls an image from the pool's registry and names it `tag` here; false when the registry lacks it */
  pullImage(tag: string, registryHost: string, signal?: AbortSignal): Promise<boolean>;
  /** pulls a published image by its full reference (the caller checked its registry is allowed): its id and the digest it came at */
  pullPublishedImage(
    reference: string,
    options: { credentials?: { username: string; password: string } | null; signal?: AbortSignal },
  ): Promise<{ imageId: string; digest: string | null }>;
  /** gives an image another name here */
  tagImage(image: string, name: string): Promise<void>;
  /** drops one name of an image (its layers stay while another name holds them) */
  untagImage(name: string): Promise<void>;
}
