import fc from "fast-check";

// Dockerfiles whose ADD source is written in one of the many spellings the builder accepts:
// quotes, escape tokens (\ or ` after `# escape=`), JSON arrays with \u escapes, ARG defaults,
// build args, meta ARGs, ENV (both forms), `${UNSET:-…}`, values split across variables, line
// continuations with comments and blank lines between, any keyword case, flags, ONBUILD in a
// parent stage. Given a URL the builder downloads it; given a local name it copies the file.

export type HiddenSource = { dockerfile: string; buildArgs: Record<string, string>; how: string };

/** One shell-word spelling of `word`: segments plain (some characters escaped), double- or single-quoted. */
const shellSpelling = (word: string, escape: string): fc.Arbitrary<string> =>
  fc
    .array(fc.constantFrom("plain", "escaped", "double", "single"), { minLength: word.length, maxLength: word.length })
    .chain((styles) =>
      fc.integer({ min: 1, max: 4 }).map((segments) => {
        const size = Math.ceil(word.length / segments);
        let out = "";
        for (let start = 0; start < word.length; start += size) {
          const segment = word.slice(start, start + size);
          const style = styles[start];
          if (style === "double") out += `"${segment}"`;
          else if (style === "single") out += `'${segment}'`;
          else
            out += [...segment]
              .map((ch, index) =>
                style === "escaped" && styles[(start + index) % styles.length] !== "plain" ? escape + ch : ch,
              )
              .join("");
        }
        return out;
      }),
    );

/** A JSON string literal holding `text`, some characters written as \u escapes (and / as \/). */
const jsonSpelling = (text: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).map(
    (escaped) =>
      `"${[...text]
        .map((ch, index) => {
          if (escaped[index])
            return ch === "/" && index % 2 ? "\\/" : `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
          return ch === '"' || ch === "\\" ? `\\${ch}` : ch;
        })
        .join("")}"`,
  );

const addKeyword = fc.constantFrom("ADD", "add", "Add", "aDd");
const flags = fc.constantFrom("", "--chown=0:0 ");

/** The ADD line for a source word written as `reference` (a spelling, or a variable reference). */
const addLine = (keyword: string, flag: string, reference: string, json: string | null, extraLocal: boolean) =>
  json
    ? `${keyword} ${flag}[${extraLocal ? '"local.txt", ' : ""}${json}, "/dst/"]`
    : `${keyword} ${flag}${extraLocal ? "local.txt " : ""}${reference} /dst/`;

/** Breaks a line into continuation lines (never right after an escape token), with comments and blank lines between. */
const continued = (line: string, escape: string): fc.Arbitrary<string> =>
  fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, line.length - 1) }), { maxLength: 3 }).chain((cuts) =>
    fc
      .array(fc.constantFrom("", "# between the parts", "   "), { minLength: cuts.length, maxLength: cuts.length })
      .map((fillers) => {
        // a part that begins or ends with a space could be all spaces, which the parser skips
        const points = [...cuts]
          .sort((a, b) => a - b)
          .filter((cut) => line[cut - 1] !== escape && line[cut - 1] !== " " && line[cut] !== " ");
        let out = "";
        let from = 0;
        points.forEach((cut, index) => {
          out += `${line.slice(from, cut)}${escape}\n${fillers[index] ? `${fillers[index]}\n` : ""}`;
          from = cut;
        });
        return out + line.slice(from);
      }),
  );

/** Dockerfiles FROM `base` that ADD `source` (a URL or a local file name) by one of the spellings above. */
export function hiddenSourceDockerfile(source: string, base: string): fc.Arbitrary<HiddenSource> {
  const escapeToken = fc.constantFrom("\\", "`");
  return (
    fc
      .record({
        escape: escapeToken,
        placement: fc.constantFrom(
          "direct",
          "json",
          "arg",
          "split-arg-env",
          "env-old-form",
          "build-arg",
          "meta-arg",
          "default",
          "onbuild",
        ),
        keyword: addKeyword,
        flag: flags,
        extraLocal: fc.boolean(),
        cut: fc.integer({ min: 1, max: Math.max(1, source.length - 1) }),
      })
      // an ONBUILD trigger is parsed again where it runs, with the default escape token
      .map((choice) => (choice.placement === "onbuild" ? { ...choice, escape: "\\" } : choice))
      .chain(({ escape, placement, keyword, flag, extraLocal, cut }) =>
        fc
          .record({
            whole: shellSpelling(source, escape),
            first: shellSpelling(source.slice(0, cut), escape),
            second: shellSpelling(source.slice(cut), escape),
            json: shellSpelling(source, escape).chain(jsonSpelling),
          })
          .chain((spelled: { whole: string; first: string; second: string; json: string }) => {
            const header = escape === "`" ? ["# escape=`"] : [];
            const buildArgs: Record<string, string> = {};
            const before: string[] = [];
            const inStage: string[] = [];
            let reference = spelled.whole;
            let json: string | null = null;
            if (placement === "json") json = spelled.json;
            if (placement === "arg") {
              inStage.push(`ARG SRC=${spelled.whole}`);
              reference = "${SRC}";
            }
            if (placement === "split-arg-env") {
              inStage.push(`ARG HEAD=${spelled.first}`, `ENV TAIL=${spelled.second}`);
              reference = "${HEAD}$TAIL";
            }
            if (placement === "env-old-form") {
              inStage.push(`ENV SRC ${spelled.whole}`);
              reference = '"$SRC"';
            }
            if (placement === "build-arg") {
              inStage.push("ARG SRC");
              buildArgs.SRC = source;
              reference = "$SRC";
            }
            if (placement === "meta-arg") {
              before.push(`ARG SRC=${spelled.whole}`);
              inStage.push("ARG SRC");
              reference = "${SRC}";
            }
            if (placement === "default") reference = `\${UNSET_SOURCE:-${spelled.whole}}`;
            const line = addLine(keyword, flag, reference, json, extraLocal);
            return continued(line, escape).map((add) => {
              const stages =
                placement === "onbuild"
                  ? [`FROM ${base} AS parent`, ...inStage, `ONBUILD ${add}`, "FROM parent", "RUN true"]
                  : [`FROM ${base}`, ...inStage, add];
              return {
                dockerfile: [...header, ...before, ...stages, ""].join("\n"),
                buildArgs,
                how: `${placement}: ${line}`,
              };
            });
          }),
      )
  );
}
