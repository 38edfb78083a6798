import type { ImportRun } from "./import-run";

// The generator (model_name_or_path) of what a file holds. What the user said — `--generator`,
// the upload form's generator — always wins over what any file names; a file naming another
// model is told once per batch, however many records it concerns.

/** Picks the generator of one record from the model the file names (`where` says which record). */
export type ChooseGenerator = (named: string | null | undefined, where: string) => string | null;

/** No user input: the file's own model. */
export const generatorOfFile: ChooseGenerator = (named) => named ?? null;

export function generatorChooser(run: ImportRun, explicit: string | null | undefined): ChooseGenerator {
  if (!explicit) return generatorOfFile;
  return (named, where) => {
    if (named && named !== explicit) {
      run.note(
        `The generator you gave ("${explicit}") was used for every result, although the files name another model ("${named}" for ${where}, and perhaps others); import without --generator to keep the files' models.`,
        "generator-conflict",
      );
    }
    return explicit;
  };
}
