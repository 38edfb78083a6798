import { DockerfileParser, From, JSONInstruction, ModifiableInstruction, type Arg, type Env, type Instruction } from "dockerfile-ast";

// Builds must not reach outside the machine. RUN steps get network "none", but the Docker
// daemon itself fetches `ADD <url>` sources and pulls a FROM / COPY --from image it lacks,
// so those are refused here, from the parsed Dockerfile, before anything reaches the daemon.
// The parser (dockerfile-ast, the one behind VS Code's Dockerfile support) handles line
// continuations, the escape directive, JSON forms, flags and heredocs for us.

/** An image the recipe needs from the engine, and the line that names it. */
export type RequiredImage = { image: string; line: number; instruction: string };

export type DockerfileReview = { problems: string[]; requiredImages: RequiredImage[] };

const URL_SOURCE = /^[a-z][a-z0-9+.-]*:\/\//i;
const GIT_SOURCE = /^git@|\.git(#.*)?$/i;
const SCRATCH = "scratch";

const lineOf = (instruction: Instruction) => instruction.getRange().start.line + 1;
const flagsOf = (instruction: Instruction) => (instruction instanceof ModifiableInstruction ? instruction.getFlags() : []);

/** `$NAME`, `${NAME}`, `${NAME:-default}`, `${NAME:+alternative}` with the build's ARG values. */
export function expandArgs(text: string, values: Record<string, string | undefined>): string {
  return text.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::?([-+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_, braced, modifier, word, bare) => {
    const value = values[braced ?? bare];
    if (modifier === "-") return value ? value : word;
    if (modifier === "+") return value ? word : "";
    return value ?? "";
  });
}

/**
 * Records an ARG's or ENV's value as the build would see it (a build arg overrides an ARG
 * default). Stages are not told apart: a value seen anywhere may expand anywhere, which can
 * only make the review stricter.
 */
function recordVariables(instruction: Instruction, values: Record<string, string | undefined>, buildArgs: Record<string, string>) {
  const keyword = instruction.getKeyword();
  if (keyword !== "ARG" && keyword !== "ENV") return;
  for (const property of (instruction as Arg | Env).getProperties()) {
    const name = property.getName();
    const value = property.getValue() ?? undefined;
    if (keyword === "ARG") values[name] = buildArgs[name] ?? (value === undefined ? values[name] : expandArgs(value, values));
    else values[name] = value === undefined ? undefined : expandArgs(value, values);
  }
}

/** ADD/COPY sources: every argument but the destination, in shell or JSON form. */
function sourcesOf(instruction: Instruction): string[] {
  const json = instruction instanceof JSONInstruction ? instruction.getJSONStrings().map((value) => value.getJSONValue()) : [];
  const words = json.length ? json : instruction.getArguments().map((argument) => argument.getValue());
  return words.slice(0, -1);
}

function reviewAdd(instruction: Instruction, values: Record<string, string | undefined>, problems: string[]) {
  const line = lineOf(instruction);
  for (const flag of flagsOf(instruction)) {
    const name = flag.getName().toLowerCase();
    if (name === "checksum" || name === "keep-git-dir") {
      problems.push(`Line ${line}: ADD --${name} downloads its source, and builds have no network. Put the file into the environment's context files and COPY it.`);
      return;
    }
  }
  for (const source of sourcesOf(instruction).map((word) => expandArgs(word, values).trim())) {
    if (URL_SOURCE.test(source) || GIT_SOURCE.test(source)) {
      problems.push(`Line ${line}: ADD ${source} would make the Docker engine download it, and builds have no network. Put the file into the environment's context files and COPY it.`);
    }
  }
}

function reviewRun(instruction: Instruction, problems: string[]) {
  const line = lineOf(instruction);
  for (const flag of flagsOf(instruction)) {
    const name = flag.getName().toLowerCase();
    problems.push(
      name === "network"
        ? `Line ${line}: RUN --network is not allowed: build steps never get a network.`
        : `Line ${line}: RUN --${name} needs BuildKit, and this worker builds with Docker's classic builder. Drop the flag (a cache or secret mount has no equivalent here).`,
    );
  }
}

function reviewHeredocs(instruction: Instruction, problems: string[]) {
  const heredocs = (instruction as Instruction & { getHeredocs?: () => unknown[] }).getHeredocs?.() ?? [];
  if (heredocs.length) {
    problems.push(
      `Line ${lineOf(instruction)}: ${instruction.getKeyword()} with a heredoc (<<EOF) needs BuildKit, and this worker builds with Docker's classic builder. Put the script into the context files, or chain the commands with &&.`,
    );
  }
}

/**
 * What a Dockerfile asks of the outside world: problems (each a sentence naming its line)
 * and the images it needs, which the caller checks are already on the engine. Stage names
 * (FROM x AS name, COPY --from=name or =index) and `scratch` need nothing.
 */
export function reviewDockerfile(text: string, buildArgs: Record<string, string> = {}): DockerfileReview {
  const dockerfile = DockerfileParser.parse(text);
  const args: Record<string, string | undefined> = {};
  const problems: string[] = [];
  const requiredImages: RequiredImage[] = [];
  const stages: string[] = [];
  let stageCount = 0;

  const requireImage = (reference: string, instruction: Instruction, what: string) => {
    const line = lineOf(instruction);
    if (!reference) {
      problems.push(`Line ${line}: ${what} names no image (an ARG without a value?). Give the ARG a default or pass it as a build arg.`);
      return;
    }
    if (reference.toLowerCase() === SCRATCH || stages.includes(reference.toLowerCase())) return;
    requiredImages.push({ image: reference, line, instruction: `${what}${what.endsWith("=") ? "" : " "}${reference}` });
  };

  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    recordVariables(instruction, args, buildArgs);
    if (instruction instanceof From) {
      const platform = instruction.getPlatformFlag();
      if (platform) problems.push(`Line ${lineOf(instruction)}: FROM --platform may make the engine pull another platform's image; builds use the images already on the engine. Drop the flag.`);
      const image = expandArgs(instruction.getImage() ?? "", args).trim();
      requireImage(image, instruction, "FROM");
      stageCount++;
      const stage = instruction.getBuildStage();
      stages.push((stage ?? `#${stageCount}`).toLowerCase());
      continue;
    }
    if (keyword === "ADD") reviewAdd(instruction, args, problems);
    if (keyword === "RUN") reviewRun(instruction, problems);
    if (keyword === "RUN" || keyword === "COPY" || keyword === "ADD") reviewHeredocs(instruction, problems);
    if (keyword === "COPY" || keyword === "ADD") {
      const from = flagsOf(instruction).find((flag) => flag.getName().toLowerCase() === "from");
      const value = from?.getValue();
      // a number names an earlier stage by its index
      if (value && !(/^\d+$/.test(value) && Number(value) < stageCount - 1)) requireImage(expandArgs(value, args).trim(), instruction, `${keyword} --from=`);
    }
  }
  return { problems, requiredImages };
}
