import path from "node:path";
import type { Readable } from "node:stream";
import { extract, pack, type Header } from "tar-stream";
import type { FileTree } from "./docker-engine";

// How a validation container is locked down, on any storage driver. Docker's per-container
// disk quota (StorageOpt size) needs overlay2 on xfs with pquota, which most hosts lack, so
// the root filesystem is read-only and every writable place is a tmpfs with a size: the
// work tree (the image's WORKDIR), /tmp, /var/tmp and /swe-curator (our scripts). A tmpfs
// hides what the image had at that path, so the work tree is read out of the created
// container and fed, with our files, as one tar on stdin to a fixed setup step that runs as
// root, hands the work tree to the test user and then drops every privilege before the
// command. A `timeout` inside the container ends the command even when its worker is gone.
// The setup step stays the container's first process until the command ends, to report what
// the engine may miss (reportsOomKill).

/** A label on an image naming the user its tests should run as (the base image sets it). */
export const LABEL_TEST_USER = "io.swe-curator.test-user";
const SCRIPTS_DIR = "/swe-curator";
/** seconds the in-container limit waits beyond the worker's own timer, so the worker normally classifies the timeout */
const INNER_TIMEOUT_GRACE_SECONDS = 5;

// $1 user ("" = root), $2 time limit in seconds, $3 work tree ("" = none), then the command
const SETUP = `set -e
tar -x --no-same-owner -C /
user="$1"; limit="$2"; work="$3"; shift 3
drop="setpriv --inh-caps=-all --bounding-set=-all"
if [ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ]; then
  group=$(id -g "$user" 2>/dev/null || echo "$user")
  [ -z "$work" ] || chown -R "$user:$group" "$work"
  drop="setpriv --reuid=$user --regid=$group --clear-groups --inh-caps=-all --bounding-set=-all"
  export HOME=/tmp
fi
if ! command -v setpriv >/dev/null 2>&1; then
  echo "[swe-curator] this image has no setpriv (util-linux): the command runs as root"
  drop=""
fi
oom_kills() {
  for f in /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control; do
    [ -r "$f" ] || continue
    while read -r key value; do [ "$key" = oom_kill ] && echo "$value"; done < "$f"
    break
  done
  return 0
}
set +e
before=$(oom_kills)
timeout -s KILL "$limit" $drop "$@"
status=$?
after=$(oom_kills)
if [ -n "$before" ] && [ -n "$after" ] && [ "$after" -gt "$before" ]; then
  echo "[swe-curator] out of memory: the kernel ended $((after - before)) process(es) of this run"
fi
exit $status
`;

// The engine's own OOMKilled flag is lost when the container exits soon after a process of
// it was killed for memory (the runtime drops the event once the cgroup is gone), as when a
// test script carries on and exits 0. So the setup step, still root and the container's
// first process, compares the memory cgroup's oom_kill count before and after the command
// and says so in the output. A test that prints the line itself only makes its own run an
// infrastructure failure, which a test that hangs reaches anyway: nothing is gained by it.
const OOM_REPORT = /\[swe-curator\] out of memory: the kernel ended (\d+) process/;

/** Whether the output's end holds the setup step's report of a process killed for memory. */
export const reportsOomKill = (outputTail: string) => Number(OOM_REPORT.exec(outputTail)?.[1] ?? 0) > 0;

export type ImageFacts = { workingDir: string; user: string; labels: Record<string, string> };

/** The user the command runs as: the image's USER, else the user its label names, else root (""). */
export function testUserOf(image: ImageFacts): string {
  const user = image.user.split(":")[0];
  if (user && user !== "root" && user !== "0") return image.user.split(":")[0];
  return image.labels[LABEL_TEST_USER] ?? "";
}

/** The work tree that gets a writable tmpfs: the image's WORKDIR, unless that is the root. */
export const workTreeOf = (image: ImageFacts) =>
  image.workingDir && path.posix.normalize(image.workingDir) !== "/" ? path.posix.normalize(image.workingDir) : "";

export function sandboxCommand(
  command: string[],
  facts: { user: string; timeoutMs: number; workTree: string },
): string[] {
  const seconds = Math.ceil(facts.timeoutMs / 1000) + INNER_TIMEOUT_GRACE_SECONDS;
  return ["/bin/sh", "-c", SETUP, "swe-curator-setup", facts.user, String(seconds), facts.workTree, ...command];
}

export function sandboxHostConfig(diskMb: number, workTree: string) {
  const writable = (mode: string) => `rw,exec,nosuid,nodev,size=${diskMb}m,mode=${mode}`;
  const tmpfs: Record<string, string> = {
    "/tmp": writable("1777"),
    "/var/tmp": writable("1777"),
    [SCRIPTS_DIR]: writable("755"),
  };
  if (workTree) tmpfs[workTree] = writable("755");
  return {
    ReadonlyRootfs: true,
    Tmpfs: tmpfs,
    CapDrop: ["ALL"],
    // for the setup step only (extract, chown, switch user); setpriv drops them all before the command
    CapAdd: ["CHOWN", "DAC_OVERRIDE", "FOWNER", "SETUID", "SETGID", "SETPCAP"],
  };
}

/**
 * One tar for the setup step's stdin: the work tree as the image has it (read from the
 * created container with getArchive, re-rooted at its absolute path) followed by our files.
 */
export function sandboxInput(workTreeArchive: Readable | null, workTree: string, files: FileTree): Readable {
  const output = pack();
  const addFiles = () => {
    for (const [name, entry] of Object.entries(files)) {
      const { content, mode } =
        typeof entry === "string" || Buffer.isBuffer(entry) ? { content: entry, mode: 0o644 } : entry;
      output.entry({ name: name.replace(/^\/+/, ""), mode, mtime: new Date(0) }, content);
    }
    output.finalize();
  };
  if (!workTreeArchive) {
    addFiles();
    return output as unknown as Readable;
  }
  // getArchive names entries from the work tree's own folder name: put them back under its parent
  const parent = path.posix.dirname(workTree).replace(/^\/+/, "");
  const reader = extract();
  reader.on("entry", (header: Header, stream, next) => {
    const renamed = { ...header, name: parent ? `${parent}/${header.name}` : header.name };
    if (header.linkname && header.type === "link")
      renamed.linkname = parent ? `${parent}/${header.linkname}` : header.linkname;
    stream.pipe(output.entry(renamed, next) as unknown as NodeJS.WritableStream);
  });
  reader.on("finish", addFiles);
  reader.on("error", (error) => output.destroy(error));
  workTreeArchive.pipe(reader as unknown as NodeJS.WritableStream);
  return output as unknown as Readable;
}
