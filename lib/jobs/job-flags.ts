// graphile-worker lets each worker refuse jobs by flag (its forbiddenFlags option). Every
// job carries the flag of what it needs, so a worker whose engine is down refuses Docker
// jobs and a draining worker refuses everything, with the queue's own claim; a validation
// also carries its image's flag, so a worker lacking that image can leave the run to an
// engine that holds it (see lib/worker-runtime/claim-flags.ts).

export const JOB_FLAG = {
  /** the job needs a Docker engine */
  docker: "needs-docker",
  /** the job reads an uploaded file: any worker can take it */
  import: "import",
} as const;

const IMAGE_PREFIX = "image:";

/** The flag of a validation whose image has this build-context hash. */
export const imageFlag = (contextHash: string) => `${IMAGE_PREFIX}${contextHash}`;

export const isImageFlag = (flag: string) => flag.startsWith(IMAGE_PREFIX);

/** Every flag a job carries: what it needs, plus its image's when known. */
export function flagsFor(needs: keyof typeof JOB_FLAG, contextHash?: string | null): string[] {
  return contextHash ? [JOB_FLAG[needs], imageFlag(contextHash)] : [JOB_FLAG[needs]];
}
