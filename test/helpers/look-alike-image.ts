import { readFileSync } from "node:fs";
import path from "node:path";
import type { DockerEngine } from "../../lib/docker/docker-engine";

// Look-alikes of SWE-bench's per-instance images, made offline from the debootstrap base image:
// the demo calc repository at /testbed, committed and on the path, pytest inside. Pushed to a
// registry of the test's own under the name the dataset gives the instance.

const BASE_IMAGE = process.env.BASE_IMAGE || "swe-curator/python-base:bookworm";
export const DEMO_DIR = path.join(import.meta.dirname, "../../prisma/seed/demo");
const REPO_FILES = ["calc/__init__.py", "calc/ops.py", "setup.cfg", "tests/test_ops.py"];

export const demoFile = (relative: string) => readFileSync(path.join(DEMO_DIR, relative), "utf8");

function lookAlikeDockerfile(extra: string) {
  return [
    `FROM ${BASE_IMAGE}`,
    "COPY repo/ /testbed/",
    "WORKDIR /testbed",
    "ENV PYTHONPATH=/testbed",
    "RUN git init -q && git add -A && git -c user.email=t@example.com -c user.name=t commit -qm base",
    extra,
    "",
  ].join("\n");
}

/** Builds a look-alike as `name`, pushes it to the registry at `registryHost` and drops the local name, as a fresh host would lack it. */
export async function publishLookAlike(
  engine: DockerEngine,
  options: { name: string; registryHost: string; labels: Record<string, string>; extra?: string },
) {
  await engine.buildImage({
    tag: options.name,
    dockerfile: lookAlikeDockerfile(options.extra ?? ""),
    contextFiles: Object.fromEntries(REPO_FILES.map((file) => [`repo/${file}`, demoFile(`repos/calc/${file}`)])),
    labels: options.labels,
    limits: { memoryMb: 512, cpus: 1, pids: 256, diskMb: 1024 },
  });
  await engine.pushImage(options.name, options.registryHost);
  await engine.untagImage(options.name);
}
