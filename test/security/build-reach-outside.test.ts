import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerForTests } from "../helpers/docker";
import { BASE_IMAGE, startRecordingDockerProxy, startRecordingHttpServer } from "./build-helpers";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { RecipeRefusedError } from "@/lib/docker/docker-errors";
import { reviewDockerfile } from "@/lib/docker/dockerfile-policy";
import type { BuildImageOptions } from "@/lib/docker/docker-engine";

// Issue 10.2: RUN steps have no network, but the daemon itself fetches `ADD <url>` and pulls
// a FROM image it lacks. Each attack here is a real build against the real engine, watched
// through a recording proxy on the Docker socket and a recording HTTP server.

const docker = await dockerForTests();
const LIMITS = { memoryMb: 512, cpus: 1, pids: 128, diskMb: 1024 };
const ABSENT_IMAGE = "busybox:swe-curator-never-pulled";

describe("reviewing a Dockerfile (parser cases)", () => {
  it("finds URL and git sources through continuations, JSON form, flags and ARG/ENV values, and names their lines", async () => {
    const dockerfile = [
      "ARG SRC=https://example.org/a.tgz", // 1
      `FROM ${BASE_IMAGE}`, // 2
      "ADD --checksum=sha256:0123 https://example.org/b.tgz /b", // 3
      "ADD http://127.0.0.1:9/x.txt \\", // 4
      "    /x.txt", // 5
      'ADD ["https://example.org/c", "/c"]', // 6
      "ADD https://github.com/moby/moby.git#v20.10.24 /moby", // 7
      "ADD ${SRC} /a", // 8
      "ENV MIRROR=ftp://mirror.example", // 9
      "ADD $MIRROR/d /d", // 10
      "ADD local.txt /local.txt", // 11
    ].join("\n");
    const { problems } = await reviewDockerfile(dockerfile);
    // line 3 twice: its --checksum flag and its URL. Line 8's ${SRC} is empty, as in the builder: an ARG
    // declared before FROM is not seen in a stage that does not declare it again
    expect(problems.map((problem) => problem.slice(0, problem.indexOf(":")))).toEqual([
      "Line 3",
      "Line 3",
      "Line 4",
      "Line 6",
      "Line 7",
      "Line 10",
    ]);
    expect(problems[2]).toBe(
      "Line 4: ADD http://127.0.0.1:9/x.txt would make the Docker engine download it itself, outside the build's sandbox. Put the file into the environment's context files and COPY it.",
    );
  });

  it("lets stage names, stage indexes and scratch through, and asks the engine for every other image", async () => {
    const dockerfile = [
      "ARG BASE_IMAGE=python:3.11-slim",
      "FROM ${BASE_IMAGE} AS deps",
      "RUN echo 'ADD http://in.a.string/is/not/an/instruction'",
      "FROM deps AS test",
      "COPY --from=deps /a /b",
      "COPY --from=0 /a /c",
      "COPY --from=alpine:3 /bin/sh /sh",
      "FROM scratch",
    ].join("\n");
    const review = await reviewDockerfile(dockerfile, { BASE_IMAGE });
    expect(review.problems).toEqual([]);
    expect(review.requiredImages).toEqual([
      { image: BASE_IMAGE, line: 2, instruction: `FROM ${BASE_IMAGE}` },
      { image: "alpine:3", line: 7, instruction: "COPY --from=alpine:3" },
    ]);
  });

  it("refuses what the classic builder cannot run safely: RUN --network, --mount and heredocs", async () => {
    const dockerfile = [
      `FROM ${BASE_IMAGE}`,
      "RUN --network=host curl http://x",
      "RUN --mount=type=cache,target=/root/.cache pip install x",
      "RUN <<EOF",
      "echo hi",
      "EOF",
    ].join("\n");
    const { problems } = await reviewDockerfile(dockerfile);
    expect(problems).toEqual([
      "Line 2: RUN --network is not allowed: build steps never get a network.",
      expect.stringMatching(/^Line 3: RUN --mount needs BuildKit/),
      expect.stringMatching(/^Line 4: RUN with a heredoc \(<<EOF\) needs BuildKit/),
    ]);
  });
});

describe.skipIf(!docker.ready)("builds that would reach outside (real Docker)", () => {
  let http: Awaited<ReturnType<typeof startRecordingHttpServer>>;
  let proxy: Awaited<ReturnType<typeof startRecordingDockerProxy>>;
  const raw = new Docker();
  const tags: string[] = [];

  beforeAll(async () => {
    http = await startRecordingHttpServer();
    proxy = await startRecordingDockerProxy();
  });
  afterAll(async () => {
    for (const tag of tags)
      await raw
        .getImage(tag)
        .remove({ force: true })
        .catch(() => {});
    await http?.close();
    await proxy?.close();
  });

  async function build(dockerfile: string, extra: Partial<BuildImageOptions> = {}) {
    const tag = `swe-curator/security-test:${Math.random().toString(36).slice(2, 10)}`;
    tags.push(tag);
    const log: string[] = [];
    const engine = createDockerEngine({ DOCKER_HOST: proxy.dockerHost });
    const before = proxy.requests.length;
    const outcome = await engine
      .buildImage({
        tag,
        dockerfile,
        contextFiles: { "local.txt": "from the context\n" },
        limits: LIMITS,
        onOutput: (text) => log.push(text),
        ...extra,
      })
      .then(
        (result) => ({ ok: true as const, ...result }),
        (error: Error) => ({ ok: false as const, error }),
      );
    return { outcome, log: log.join(""), requests: proxy.requests.slice(before) };
  }

  const buildOrPull = (request: string) => /^POST \/(v[\d.]+\/)?(build|images\/create)\b/.test(request);

  it("refuses ADD <url> naming the line; the daemon never sees the build and the file server gets no request", async () => {
    const { outcome, log, requests } = await build(
      `FROM ${BASE_IMAGE}\nCOPY local.txt /local.txt\nADD ${http.url}/x.txt /x.txt\n`,
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toBeInstanceOf(RecipeRefusedError);
    expect(outcome.error.message).toContain(
      `Line 3: ADD ${http.url}/x.txt would make the Docker engine download it itself`,
    );
    expect(log).toContain("Line 3:");
    // no build reached the daemon, so nothing could fetch the file later: no grace period to wait out
    expect(requests.filter(buildOrPull)).toEqual([]);
    expect(http.requests).toEqual([]);
  });

  it("refuses FROM an image the engine lacks (also through an ARG) and never asks the engine to pull", async () => {
    for (const dockerfile of [
      `FROM ${ABSENT_IMAGE}\nRUN true\n`,
      `ARG IMAGE=${ABSENT_IMAGE}\nFROM $IMAGE\n`,
      `FROM ${BASE_IMAGE} AS a\nCOPY --from=${ABSENT_IMAGE} /bin/sh /sh\n`,
    ]) {
      const { outcome, requests } = await build(dockerfile);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error).toBeInstanceOf(RecipeRefusedError);
      expect(outcome.error.message).toMatch(
        new RegExp(
          `Line \\d: .*${ABSENT_IMAGE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is not on the Docker engine, and builds never pull`,
        ),
      );
      expect(requests.filter(buildOrPull)).toEqual([]);
    }
    expect(
      await raw
        .getImage(ABSENT_IMAGE)
        .inspect()
        .catch(() => null),
    ).toBeNull();
  });

  it("still builds a multi-stage recipe whose images are all on the engine, with the base image chosen by a build arg", async () => {
    const dockerfile = `ARG BASE_IMAGE=${ABSENT_IMAGE}\nFROM \${BASE_IMAGE} AS deps\nRUN echo built > /built.txt\nFROM deps\nCOPY --from=deps /built.txt /again.txt\nCOPY local.txt /local.txt\nRUN cat /again.txt /local.txt\n`;
    const { outcome, log, requests } = await build(dockerfile, { buildArgs: { BASE_IMAGE } });
    expect(outcome).toMatchObject({ ok: true, imageId: expect.stringMatching(/^sha256:/) });
    // the proxy does see a build that is allowed: its silence above means something
    expect(requests.filter(buildOrPull)).toEqual([expect.stringMatching(/\/build\?/)]);
    expect(log).toContain("from the context");
  });
});
