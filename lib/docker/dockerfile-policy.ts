import { BadWordError, expandWord, UnforeseeableWordError, type Variables } from "./dockerfile-words";
import { GENERATIONS, parseDockerfile, type Generation, type Instruction } from "./dockerfile-syntax";

// Builds must not reach outside the machine. RUN steps get network "none", but the Docker
// daemon itself downloads `ADD <url>` and git sources, pulls a FROM / COPY --from image it
// lacks, and runs the ONBUILD triggers a FROM image carries. So a recipe is read here the way
// the builder reads it — its parser's rules (dockerfile-syntax.ts), its shell lexer for quotes,
// escapes and variables (dockerfile-words.ts), every ARG with its build arg or default, every
// ENV including the base image's — and refused before the daemon sees it when any builder
// generation would fetch. Where the builder could still reach something this reading cannot
// foresee, the build has no network anyway (image-build.ts builds with network "none").

/** An image the recipe needs from the engine, and the line that names it. */
export type RequiredImage = { image: string; line: number; instruction: string };

export type DockerfileReview = { problems: string[]; requiredImages: RequiredImage[] };

/** What the review needs of an image on the engine: its ENV and its ONBUILD triggers. */
export type ImageConfig = { env: string[]; onBuild: string[] };

/** Looks an image up on the engine; null when the engine lacks it. */
export type ImageLookup = (reference: string) => Promise<ImageConfig | null>;

const FETCHED_SOURCE = [/:\/\//, /^git@/i, /^github\.com\//i, /\.git(#.*)?$/i, /^[\w.-]+@[\w.-]+:/];
const isFetchedSource = (source: string) => FETCHED_SOURCE.some((pattern) => pattern.test(source.trim()));
const HEREDOC = /(^|\s)\d*<<-?\s*["']?[^\s<"']/;
const SCRATCH = "scratch";
/** A flag's name (lower-cased, without its dashes) and its value. */
const flagParts = (flag: string) => {
  const [name, ...value] = flag.replace(/^--/, "").split("=");
  return { name: name.toLowerCase(), value: value.length ? value.join("=") : undefined };
};
const everyImagePresent: ImageLookup = async () => ({ env: [], onBuild: [] });

type Stage = { name: string; env: Map<string, string | null>; args: Map<string, string | null>; triggers: string[] };

/** How a problem is told: the line it belongs to, and what leads to it (an ONBUILD trigger a FROM image carries). */
type Place = { line: number; via?: string };

class Review {
  readonly problems = new Set<string>();
  readonly requiredImages = new Map<string, RequiredImage>();
  private readonly meta = new Map<string, string | null>();
  private readonly stages: Stage[] = [];
  private stage: Stage | undefined;

  constructor(
    private readonly generation: Generation,
    private readonly buildArgs: Record<string, string>,
    private readonly lookupImage: ImageLookup,
  ) {}

  private report(place: Place, text: string) {
    this.problems.add(`Line ${place.line}: ${place.via ? `${place.via}: ` : ""}${text}`);
  }

  /** The variables an instruction of the current stage sees: ENV wins over ARG, as in the builder. */
  private variables(): Variables {
    if (!this.stage) return this.meta;
    return new Map([...this.stage.args, ...this.stage.env]);
  }

  /** The word as the builder expands it; undefined (and a problem) when it cannot be told. */
  private expand(word: string, escape: string, place: Place, what: string): string | undefined {
    try {
      return expandWord(word, this.variables(), escape);
    } catch (error) {
      if (error instanceof UnforeseeableWordError) {
        this.report(
          place,
          `${what} ${word}: ${error.message}, so the build policy cannot tell whether it fetches. Write the value out.`,
        );
      } else if (error instanceof BadWordError) {
        this.report(place, `${what} ${word} cannot be read: ${error.message}.`);
      } else throw error;
      return undefined;
    }
  }

  /** A variable's value, or null when it cannot be told (it is refused only where it is used). */
  private valueOf(word: string, escape: string): string | null {
    try {
      return expandWord(word, this.variables(), escape);
    } catch (error) {
      if (error instanceof UnforeseeableWordError || error instanceof BadWordError) return null;
      throw error;
    }
  }

  private recordArg(instruction: Instruction, escape: string) {
    for (const word of instruction.args) {
      const equals = word.indexOf("=");
      const name = equals < 0 ? word : word.slice(0, equals);
      const fallback =
        equals < 0 ? (this.stage ? this.meta.get(name) : undefined) : this.valueOf(word.slice(equals + 1), escape);
      const value = Object.hasOwn(this.buildArgs, name) ? this.buildArgs[name] : fallback;
      const target = this.stage ? this.stage.args : this.meta;
      if (value === undefined) target.delete(name);
      else target.set(name, value);
    }
  }

  private recordEnv(instruction: Instruction, escape: string) {
    if (!this.stage) return;
    const words = instruction.args;
    const gap = /[\t\v\f\r ]+/.exec(instruction.rest);
    // the old form `ENV NAME the rest of the line`
    const oldForm = words.length > 0 && !words[0].includes("=");
    const pairs = oldForm
      ? gap
        ? [[instruction.rest.slice(0, gap.index), instruction.rest.slice(gap.index + gap[0].length)]]
        : []
      : words.map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]);
    for (const [name, value] of pairs) {
      const key = this.valueOf(name, escape);
      if (key !== null) this.stage.env.set(key, this.valueOf(value, escape));
    }
  }

  private async requireImage(reference: string, place: Place, instruction: string): Promise<void> {
    const key = reference;
    if (!this.requiredImages.has(key))
      this.requiredImages.set(key, { image: reference, line: place.line, instruction });
    if (!(await this.lookupImage(reference))) {
      this.report(
        place,
        `${instruction} is not on the Docker engine, and builds never pull. Load it first (docker load), or start FROM an image that is there.`,
      );
    }
  }

  private async reviewFrom(instruction: Instruction, escape: string, place: Place) {
    if (instruction.flags.some((flag) => flagParts(flag).name === "platform")) {
      this.report(
        place,
        "FROM --platform may make the engine pull another platform's image; builds use the images already on the engine. Drop the flag.",
      );
    }
    const [imageWord = "", as, stageName] = instruction.args;
    // FROM sees only the ARGs declared before the first FROM
    const saved = this.stage;
    this.stage = undefined;
    const image = this.expand(imageWord, escape, place, "FROM")?.trim();
    this.stage = saved;
    const previous = image === undefined ? undefined : this.stages.find((stage) => stage.name === image.toLowerCase());
    const next: Stage = {
      name: as?.toLowerCase() === "as" && stageName ? stageName.toLowerCase() : `#${this.stages.length}`,
      env: new Map(),
      args: new Map(),
      triggers: [],
    };
    this.stage = next;
    this.stages.push(next);
    if (image === undefined) return;
    if (!image) {
      this.report(
        place,
        "FROM names no image (an ARG without a value?). Give the ARG a default or pass it as a build arg.",
      );
      return;
    }
    if (image.toLowerCase() === SCRATCH) return;
    let triggers: string[];
    if (previous) {
      next.env = new Map(previous.env);
      triggers = previous.triggers;
    } else {
      await this.requireImage(image, place, `FROM ${image}`);
      const config = await this.lookupImage(image);
      for (const entry of config?.env ?? []) {
        const equals = entry.indexOf("=");
        next.env.set(equals < 0 ? entry : entry.slice(0, equals), equals < 0 ? "" : entry.slice(equals + 1));
      }
      triggers = config?.onBuild ?? [];
    }
    // the builder runs the base's ONBUILD triggers right after FROM, each parsed on its own
    for (const trigger of triggers)
      await this.reviewTrigger(
        trigger,
        { line: place.line, via: `FROM ${image} runs the ONBUILD trigger "${trigger}"` },
        true,
      );
  }

  private async reviewTrigger(trigger: string, place: Place, dispatched: boolean) {
    const parsed = parseDockerfile(trigger, this.generation);
    if (parsed.error) this.report(place, `it does not parse (${parsed.error}).`);
    const saved = this.stage && { ...this.stage, env: new Map(this.stage.env), args: new Map(this.stage.args) };
    for (const instruction of parsed.instructions) {
      if (["FROM", "ONBUILD", "MAINTAINER"].includes(instruction.keyword)) continue;
      await this.reviewInstruction(instruction, parsed.escape, place);
    }
    // a trigger reviewed where it is written runs later, in another stage: it changes nothing here
    if (!dispatched && saved && this.stage) Object.assign(this.stage, saved);
  }

  private async reviewCopy(instruction: Instruction, escape: string, place: Place) {
    const { keyword } = instruction;
    for (const flag of instruction.flags) {
      const { name, value } = flagParts(flag);
      if (keyword === "ADD" && (name === "checksum" || name === "keep-git-dir")) {
        this.report(
          place,
          `ADD --${name} downloads its source, and builds never fetch. Put the file into the environment's context files and COPY it.`,
        );
      }
      if (name !== "from" || value === undefined) continue;
      const from = this.expand(value, escape, place, `${keyword} --from=`)?.trim();
      if (from === undefined) continue;
      // a number names an earlier stage by its index
      const earlierStage = /^\d+$/.test(from)
        ? Number(from) < this.stages.length - 1
        : this.stages.slice(0, -1).some((stage) => stage.name === from.toLowerCase());
      if (!from)
        this.report(
          place,
          `${keyword} --from names no image (an ARG without a value?). Give the ARG a default or pass it as a build arg.`,
        );
      else if (!earlierStage && from.toLowerCase() !== SCRATCH)
        await this.requireImage(from, place, `${keyword} --from=${from}`);
    }
    if (keyword !== "ADD") return;
    for (const word of instruction.args.slice(0, -1)) {
      const source = this.expand(word, escape, place, "ADD source");
      if (source === undefined || !isFetchedSource(source)) continue;
      const written = source === word ? "" : ` (written ${word})`;
      this.report(
        place,
        `ADD ${source}${written} would make the Docker engine download it itself, outside the build's sandbox. Put the file into the environment's context files and COPY it.`,
      );
    }
  }

  private reviewRun(instruction: Instruction, place: Place) {
    for (const flag of instruction.flags) {
      const { name } = flagParts(flag);
      this.report(
        place,
        name === "network"
          ? "RUN --network is not allowed: build steps never get a network."
          : `RUN --${name} needs BuildKit, and this worker builds with Docker's classic builder. Drop the flag (a cache, secret or bind mount has no equivalent here).`,
      );
    }
  }

  async reviewInstruction(instruction: Instruction, escape: string, place: Place): Promise<void> {
    const { keyword } = instruction;
    if (["RUN", "COPY", "ADD"].includes(keyword) && !instruction.json && HEREDOC.test(instruction.rest)) {
      this.report(
        place,
        `${keyword} with a heredoc (<<EOF) needs BuildKit, and this worker builds with Docker's classic builder. Put the script into the context files, or chain the commands with &&.`,
      );
    }
    if (keyword === "ARG") this.recordArg(instruction, escape);
    else if (keyword === "ENV") this.recordEnv(instruction, escape);
    else if (keyword === "ADD" || keyword === "COPY") await this.reviewCopy(instruction, escape, place);
    else if (keyword === "RUN") this.reviewRun(instruction, place);
    else if (keyword === "ONBUILD" && instruction.trigger) {
      const trigger = instruction.original.replace(/^\s*ONBUILD\s*/i, "");
      this.stage?.triggers.push(trigger);
      await this.reviewTrigger(trigger, { ...place, via: "ONBUILD" }, false);
    }
  }

  async run(text: string) {
    const parsed = parseDockerfile(text, this.generation);
    if (parsed.error) this.problems.add(`${parsed.error}. Fix the Dockerfile: the builder would not read it either.`);
    for (const instruction of parsed.instructions) {
      const place = { line: instruction.line };
      if (instruction.keyword === "FROM") await this.reviewFrom(instruction, parsed.escape, place);
      else await this.reviewInstruction(instruction, parsed.escape, place);
    }
  }
}

/**
 * What a Dockerfile asks of the outside world: problems (each a sentence naming its line and
 * instruction) and the images it needs from the engine. A problem any builder generation would
 * run into is reported; stage names (FROM x AS name, COPY --from=name or =index) and `scratch`
 * need no image. lookupImage answers for an image on the engine (its ENV and ONBUILD triggers
 * take part in the review); without one, every image counts as present and plain.
 */
export async function reviewDockerfile(
  text: string,
  buildArgs: Record<string, string> = {},
  lookupImage: ImageLookup = everyImagePresent,
): Promise<DockerfileReview> {
  const problems = new Set<string>();
  const requiredImages = new Map<string, RequiredImage>();
  // each image is asked of the engine once, however many lines and generations name it
  const answers = new Map<string, Promise<ImageConfig | null>>();
  const lookupOnce: ImageLookup = (reference) =>
    answers.get(reference) ?? answers.set(reference, lookupImage(reference)).get(reference)!;
  for (const generation of GENERATIONS) {
    const review = new Review(generation, buildArgs, lookupOnce);
    await review.run(text);
    review.problems.forEach((problem) => problems.add(problem));
    review.requiredImages.forEach((image, key) => requiredImages.set(key, requiredImages.get(key) ?? image));
  }
  const lineOf = (problem: string) => Number(/^Line (\d+)/.exec(problem)?.[1] ?? 0);
  return {
    problems: [...problems].sort((a, b) => lineOf(a) - lineOf(b)),
    requiredImages: [...requiredImages.values()],
  };
}
