import Docker from "dockerode";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerForTests } from "../helpers/docker";
import { canRunDockerd, ownBridge, ownDockerd } from "../helpers/own-dockerd";
import { waitFor } from "../helpers/worker";
import { BASE_IMAGE, startRecordingHttpServer } from "./build-helpers";
import { hiddenSourceDockerfile } from "./hidden-source-dockerfiles";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { RecipeRefusedError } from "@/lib/docker/docker-errors";
import { tarFiles } from "@/lib/docker/tar-files";
import type { BuildImageOptions } from "@/lib/docker/docker-engine";

// Issue 27.1 and 29.4, performed: each way to make a build reach a server on this machine is
// built for real, against an HTTP server on loopback that records every request. Through the
// product's builder (the policy, then a build with network "none") nothing arrives. The same
// recipe sent straight to the daemon does fetch — the control that shows the attack is real
// and that the recording server would have seen it.

const docker = await dockerForTests();
const LIMITS = { memoryMb: 512, cpus: 1, pids: 128, diskMb: 1024 };
const CONTEXT = { "local.txt": "from the context\n" };

type Recorder = Awaited<ReturnType<typeof startRecordingHttpServer>>;

const uniqueTag = () => `swe-curator/policy-test:${Math.random().toString(36).slice(2, 10)}`;

/** Builds through the product: the policy, then the daemon with network "none". */
async function productBuild(
  engine: ReturnType<typeof createDockerEngine>,
  tags: string[],
  dockerfile: string,
  extra: Partial<BuildImageOptions> = {},
) {
  const tag = uniqueTag();
  tags.push(tag);
  const log: string[] = [];
  return engine
    .buildImage({
      tag,
      dockerfile,
      contextFiles: CONTEXT,
      limits: LIMITS,
      onOutput: (text) => log.push(text),
      ...extra,
    })
    .then(
      (result) => ({ ok: true as const, log: log.join(""), ...result }),
      (error: Error) => ({ ok: false as const, log: log.join(""), error }),
    );
}

/** Sends a recipe straight to the daemon, past the policy: what an attacker hopes for. */
async function rawBuild(
  raw: Docker,
  tags: string[],
  dockerfile: string,
  options: { buildargs?: Record<string, string>; networkmode?: string } = {},
) {
  const tag = uniqueTag();
  tags.push(tag);
  const stream = await raw.buildImage(tarFiles({ ...CONTEXT, Dockerfile: dockerfile }), {
    t: tag,
    rm: true,
    forcerm: true,
    ...options,
  } as Docker.ImageBuildOptions);
  const events: { stream?: string; error?: string }[] = await new Promise((resolve, reject) =>
    raw.modem.followProgress(stream, (error, result) => (error ? reject(error) : resolve(result))),
  );
  return events.map((event) => event.stream ?? event.error ?? "").join("");
}

const arrived = (recorder: Recorder, token: string) => recorder.requests.filter((request) => request.includes(token));

/** Waits until the recorder saw the token: for the controls, where a request is expected. */
const seen = (recorder: Recorder, token: string) =>
  waitFor(`a request for ${token} at the recording server`, async () => arrived(recorder, token).length > 0, 30_000);

describe.skipIf(!docker.ready)(
  "a build cannot reach a server on this machine (real Docker, recording server on loopback)",
  () => {
    let http: Recorder;
    const raw = new Docker();
    const engine = createDockerEngine();
    const tags: string[] = [];

    beforeAll(async () => {
      http = await startRecordingHttpServer();
    });
    afterAll(async () => {
      for (const tag of tags.reverse())
        await raw
          .getImage(tag)
          .remove({ force: true })
          .catch(() => {});
      await http?.close();
    });

    const attacks: [string, (url: string) => string, number][] = [
      ["a quoted ADD source", (url) => `FROM ${BASE_IMAGE}\nADD "${url}" /x\n`, 2],
      [
        "the JSON form with an escaped colon",
        (url) => `FROM ${BASE_IMAGE}\nADD ["${url.replace(":", "\\u003a")}", "/x"]\n`,
        2,
      ],
      [
        "a URL assembled from ARG and ENV",
        (url) =>
          `FROM ${BASE_IMAGE}\nARG SCHEME=${url.split("://")[0]}\nENV REST=${url.split("://")[1]}\nADD \${SCHEME}://$REST /x\n`,
        4,
      ],
      [
        "escapes, quotes and a continuation",
        (url) => `FROM ${BASE_IMAGE}\nad\\\nd h\\t"tp:"//${url.slice("http://".length)} /x\n`,
        2,
      ],
    ];

    it.each(attacks)(
      "refuses %s naming its line, and nothing arrives; sent past the policy, the daemon fetches it",
      async (name, recipe, line) => {
        const token = `attack-${name.replace(/\W+/g, "-")}`;
        const dockerfile = recipe(`${http.url}/${token}`);
        const outcome = await productBuild(engine, tags, dockerfile);
        expect(outcome.ok).toBe(false);
        if (outcome.ok) return;
        expect(outcome.error).toBeInstanceOf(RecipeRefusedError);
        expect(outcome.error.message).toContain(`Line ${line}: ADD ${http.url}/${token}`);
        expect(arrived(http, token)).toEqual([]);

        await rawBuild(raw, tags, dockerfile, { networkmode: "none" });
        await seen(http, token);
      },
    );

    it("refuses a FROM whose image carries ONBUILD ADD <url> (a parent built here), naming the FROM line and the trigger", async () => {
      const token = "onbuild-trigger";
      const parent = uniqueTag();
      tags.push(parent);
      // the parent is built past the policy (which refuses ONBUILD ADD <url> too): an image from elsewhere
      const stream = await raw.buildImage(
        tarFiles({ Dockerfile: `FROM ${BASE_IMAGE}\nONBUILD ADD ${http.url}/${token} /from-trigger\n` }),
        { t: parent, networkmode: "none" },
      );
      await new Promise((resolve, reject) =>
        raw.modem.followProgress(stream, (error) => (error ? reject(error) : resolve(null))),
      );
      expect((await raw.getImage(parent).inspect()).Config.OnBuild).toEqual([`ADD ${http.url}/${token} /from-trigger`]);

      const child = `FROM ${BASE_IMAGE} AS tools\nRUN true\nFROM ${parent}\nRUN true\n`;
      const outcome = await productBuild(engine, tags, child);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.message).toContain(
        `Line 3: FROM ${parent} runs the ONBUILD trigger "ADD ${http.url}/${token} /from-trigger": ADD ${http.url}/${token} would make`,
      );
      expect(arrived(http, token)).toEqual([]);

      await rawBuild(raw, tags, child, { networkmode: "none" });
      await seen(http, token);
    });

    it("agrees with the daemon on generated spellings: each URL one is refused and nothing arrives, the daemon fetches it past the policy; each local one builds", async () => {
      const samples = Array.from({ length: 6 }, (_, index) => index);
      for (const index of samples) {
        const token = `generated-${index}`;
        const [sample] = fc.sample(hiddenSourceDockerfile(`${http.url}/${token}`, BASE_IMAGE), {
          numRuns: 1,
          seed: 2027 + index,
        });
        const outcome = await productBuild(engine, tags, sample.dockerfile, { buildArgs: sample.buildArgs });
        expect(outcome.ok, sample.dockerfile).toBe(false);
        expect(arrived(http, token), sample.dockerfile).toEqual([]);
        await rawBuild(raw, tags, sample.dockerfile, { buildargs: sample.buildArgs, networkmode: "none" });
        await seen(http, token);
      }
      for (const index of samples.slice(0, 3)) {
        const [sample] = fc.sample(hiddenSourceDockerfile("local.txt", BASE_IMAGE), { numRuns: 1, seed: 2027 + index });
        const outcome = await productBuild(engine, tags, sample.dockerfile, { buildArgs: sample.buildArgs });
        expect(outcome, `${sample.dockerfile}\n${outcome.log}`).toMatchObject({ ok: true });
      }
    });
  },
);

if (docker.ready && !canRunDockerd)
  console.warn("[skip] the RUN-step network test needs root and dockerd, to start an engine with a bridge of its own");

// RUN steps are not the daemon's doing: what stops them is the build's network "none". This
// engine has a bridge, so a step on its default network does reach the host; removing
// networkmode "none" from the builder's request makes this test fail.
describe.skipIf(!docker.ready || !canRunDockerd)(
  "a RUN step cannot reach a server on this machine (own engine with a bridge)",
  () => {
    const bridge = ownBridge();
    let own: ReturnType<typeof ownDockerd>;
    const recorders: Recorder[] = [];
    const tags: string[] = [];

    beforeAll(async () => {
      bridge.create();
      own = ownDockerd({ bridge: bridge.name });
      await own.start();
      own.loadFromSharedEngine(BASE_IMAGE);
      recorders.push(await startRecordingHttpServer(), await startRecordingHttpServer(bridge.gateway));
    });
    afterAll(async () => {
      for (const recorder of recorders) await recorder.close();
      await own?.cleanup();
      bridge.remove();
    });

    const reachEveryAddress = (token: string) => {
      const urls = recorders.map((recorder) => `${recorder.url}/${token}`);
      const lines = urls.flatMap((url) => {
        const { hostname, port, pathname } = new URL(url);
        return [
          `RUN python3 -c "import urllib.request; print('REACH' + 'ED', urllib.request.urlopen('${url}', timeout=5).status)" || echo "python could not reach ${url}"`,
          `RUN bash -c 'exec 3<>/dev/tcp/${hostname}/${port} && printf "GET ${pathname} HTTP/1.0\\r\\n\\r\\n" >&3 && echo REACH""ED' || echo "bash could not reach ${url}"`,
          `RUN (curl -fsS '${url}' || wget -q -O- '${url}') 2>&1 || echo "curl and wget could not reach ${url} (or are not installed)"`,
        ];
      });
      return `FROM ${BASE_IMAGE}\n${lines.join("\n")}\n`;
    };

    it("builds RUN steps that fetch from the host with python, bash, curl and wget; nothing arrives, and the same steps on the default network do arrive", async () => {
      const product = createDockerEngine({ DOCKER_HOST: own.host });
      const outcome = await productBuild(product, tags, reachEveryAddress("run-step"), { noCache: true });
      expect(outcome, outcome.log).toMatchObject({ ok: true });
      expect(outcome.log).toContain("python could not reach");
      // the markers are spelled apart in the commands, so only a step that got through prints them whole
      expect(outcome.log).not.toContain("REACHED");
      for (const recorder of recorders) expect(arrived(recorder, "run-step")).toEqual([]);

      // control: the engine's default network reaches the bridge's address, so silence above is the build's doing
      await rawBuild(own.client, tags, reachEveryAddress("control-step"), { buildargs: {} });
      await seen(recorders[1], "control-step");
    });
  },
);
