import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reviewDockerfile, type ImageLookup } from "@/lib/docker/dockerfile-policy";
import { hiddenSourceDockerfile } from "../security/hidden-source-dockerfiles";

// Issue 27.1: the build policy reads a Dockerfile the way the builder does. Each spelling the
// builder turns into a download must be refused, naming the line and the instruction, and the
// same spellings of a local file must still pass (a policy that refuses everything is no policy).

const BASE = "swe-curator/python-base:bookworm";
const URL = "http://127.0.0.1:9/hidden.txt";
const plainImages: ImageLookup = async () => ({ env: [], onBuild: [] });

describe("the build policy reads a Dockerfile as the builder does", () => {
  it.each([
    ["a quoted source", 'FROM base\nADD "http://127.0.0.1:9/x" /x\n', 2],
    ["the JSON form with an escaped colon", 'FROM base\nADD ["http\\u003a//127.0.0.1:9/x", "/x"]\n', 2],
    ["shell quotes inside the JSON form", 'FROM base\nADD ["\'http://127.0.0.1:9/x\'", "/x"]\n', 2],
    ["escaped characters", "FROM base\nADD h\\t\\tp://127.0.0.1:9/x /x\n", 2],
    ["the backtick escape directive", "# escape=`\nFROM base\nADD ht`tp://127.0.0.1:9/x /x\n", 3],
    [
      "a URL assembled from ARG and ENV",
      "FROM base\nARG SCHEME=http\nENV HOST=127.0.0.1:9\nADD ${SCHEME}://${HOST}/x /x\n",
      4,
    ],
    ["a substitution default", "FROM base\nADD ${UNSET:-http://127.0.0.1:9/x} /x\n", 2],
    ["a meta ARG redeclared in the stage", "ARG U=http://127.0.0.1:9/x\nFROM base\nARG U\nADD $U /x\n", 4],
    [
      "a lower-case keyword split over continuations with a comment between",
      "FROM base\nad\\\n# note\nd http://127.0.0.1:9/\\\nx /x\n",
      2,
    ],
    [
      "a doubled escape at a line's end, which newer parsers do not join",
      "FROM base\nRUN echo \\\\\nADD http://127.0.0.1:9/x /x\n",
      3,
    ],
    [
      "an ONBUILD trigger of an earlier stage",
      "FROM base AS parent\nONBUILD ADD http://127.0.0.1:9/x /x\nFROM parent\n",
      3,
    ],
    ["a git source", "FROM base\nADD git@github.com:moby/moby.git /m\n", 2],
  ])("refuses ADD through %s, naming the line and ADD", async (_, dockerfile, line) => {
    const { problems } = await reviewDockerfile(dockerfile, {}, plainImages);
    expect(
      problems.some(
        (problem) => problem.startsWith(`Line ${line}: `) && /ADD http:\/\/127\.0\.0\.1:9\/x|ADD git@/.test(problem),
      ),
    ).toBe(true);
  });

  it("takes a build arg over the ARG's default", async () => {
    const dockerfile = "FROM base\nARG SRC=local.txt\nADD $SRC /x\n";
    expect((await reviewDockerfile(dockerfile, {}, plainImages)).problems).toEqual([]);
    expect((await reviewDockerfile(dockerfile, { SRC: URL }, plainImages)).problems).toEqual([
      `Line 3: ADD ${URL} (written $SRC) would make the Docker engine download it itself, outside the build's sandbox. Put the file into the environment's context files and COPY it.`,
    ]);
  });

  it("reads the base image's ENV and refuses its ONBUILD triggers that fetch, with a sentence naming the FROM line", async () => {
    const images: ImageLookup = async (reference) =>
      reference === "parent:1"
        ? { env: [`MIRROR=${URL}`], onBuild: ["RUN true", `ADD ${URL} /from-trigger`] }
        : { env: [], onBuild: [] };
    const { problems } = await reviewDockerfile("FROM base AS first\nFROM parent:1\nADD $MIRROR /x\n", {}, images);
    expect(problems).toEqual([
      `Line 2: FROM parent:1 runs the ONBUILD trigger "ADD ${URL} /from-trigger": ADD ${URL} would make the Docker engine download it itself, outside the build's sandbox. Put the file into the environment's context files and COPY it.`,
      `Line 3: ADD ${URL} (written $MIRROR) would make the Docker engine download it itself, outside the build's sandbox. Put the file into the environment's context files and COPY it.`,
    ]);
  });

  it("refuses a source it cannot evaluate instead of guessing", async () => {
    const { problems } = await reviewDockerfile(`FROM base\nARG U=${URL}\nADD \${U#x} /x\n`, {}, plainImages);
    expect(problems).toEqual([
      expect.stringMatching(/^Line 3: ADD source \$\{U#x\}: .* the build policy cannot tell whether it fetches/),
    ]);
  });

  it("refuses every generated spelling of a URL source (property)", async () => {
    await fc.assert(
      fc.asyncProperty(hiddenSourceDockerfile(URL, BASE), async ({ dockerfile, buildArgs }) => {
        const { problems } = await reviewDockerfile(dockerfile, buildArgs, plainImages);
        expect(problems.length, `not refused:\n${dockerfile}`).toBeGreaterThan(0);
        for (const problem of problems) expect(problem).toMatch(/^Line \d+: .*ADD /);
      }),
      { numRuns: 400 },
    );
  });

  it("lets every generated spelling of a local source through (property)", async () => {
    await fc.assert(
      fc.asyncProperty(hiddenSourceDockerfile("local.txt", BASE), async ({ dockerfile, buildArgs }) => {
        expect((await reviewDockerfile(dockerfile, buildArgs, plainImages)).problems, dockerfile).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});
