import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { serverConfig } from "../config/server-config";

// Docker's build API takes memory and CPU limits but no pids limit. Its documented way to
// bound a build is a parent cgroup (--cgroup-parent): every RUN step's container is created
// under it, and the kernel applies the parent's pids.max to all of them together. We make
// one parent per build, which also tells us which containers are that build's steps.

const CGROUP_ROOT = serverConfig().SWE_CURATOR_CGROUP_ROOT;
const PARENT = "swe-curator-builds";
const CONTAINER_ID = /^[0-9a-f]{64}$/;
const REMOVE_WITHIN_MS = 60_000;

export type EngineCgroupInfo = { local: boolean; cgroupDriver?: string; cgroupVersion?: string };

export type BuildCgroup = {
  /** the value for the build's cgroupparent option; undefined when none could be made */
  parent?: string;
  /** why the build runs without a pids limit, for its log */
  unlimitedBecause?: string;
  /** the build's step containers running right now */
  containerIds(): string[];
  remove(): Promise<void>;
};

function pidsDirectory(version: string | undefined): string {
  return version === "2" ? CGROUP_ROOT : path.join(CGROUP_ROOT, "pids");
}

function enableControllers(directory: string) {
  // cgroup v2 only hands a controller to children that their parent enabled
  for (const controller of ["pids", "memory", "cpu"]) {
    try {
      writeFileSync(path.join(directory, "cgroup.subtree_control"), `+${controller}`);
    } catch {
      // a controller the kernel or the parent does not offer: pids is checked below
    }
  }
}

/** A parent cgroup with pids.max for one build, on an engine that runs on this machine with the cgroupfs driver. */
export function createBuildCgroup(engine: EngineCgroupInfo, pids: number): BuildCgroup {
  const none = (reason: string): BuildCgroup => ({
    unlimitedBecause: reason,
    containerIds: () => [],
    remove: async () => {},
  });
  if (!engine.local) return none("the Docker engine runs on another machine, so its cgroups cannot be set from here");
  if (engine.cgroupDriver !== "cgroupfs")
    return none(
      `the engine uses the ${engine.cgroupDriver ?? "unknown"} cgroup driver; only cgroupfs takes a plain parent cgroup`,
    );
  const root = pidsDirectory(engine.cgroupVersion);
  const key = randomBytes(6).toString("hex");
  const directory = path.join(root, PARENT, key);
  try {
    if (engine.cgroupVersion === "2") enableControllers(root);
    mkdirSync(path.join(root, PARENT), { recursive: true });
    if (engine.cgroupVersion === "2") enableControllers(path.join(root, PARENT));
    mkdirSync(directory);
    writeFileSync(path.join(directory, "pids.max"), String(pids));
    if (readFileSync(path.join(directory, "pids.max"), "utf8").trim() !== String(pids))
      throw new Error("pids.max did not take");
  } catch (error) {
    try {
      rmdirSync(directory);
    } catch {
      // never made
    }
    return none(`the build's cgroup could not be made (${(error as Error).message})`);
  }
  return {
    parent: `/${PARENT}/${key}`,
    containerIds: () => (existsSync(directory) ? readdirSync(directory).filter((name) => CONTAINER_ID.test(name)) : []),
    async remove() {
      // the last step's cgroup disappears a moment after its container; after a fork bomb on a
      // busy machine the kernel may take many seconds to reap thousands of processes
      const deadline = Date.now() + REMOVE_WITHIN_MS;
      for (;;) {
        try {
          rmdirSync(directory);
          return;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
          if (Date.now() > deadline) {
            console.warn(`[build] the build cgroup ${directory} was still busy after 60 s and is left: ${error}`);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    },
  };
}

/** Whether a DOCKER_HOST names a socket on this machine (so its cgroups are ours to set). */
export function isLocalEngine(endpoint: string): boolean {
  if (!endpoint.startsWith("unix://")) return false;
  return existsSync(endpoint.slice("unix://".length));
}
