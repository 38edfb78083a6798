import type { DockerEngine } from "./docker-engine";
import type { EnvironmentSource } from "../config/server-config";
import { connectToEngine, whileEngineAnswers } from "./engine-connection";
import { DockerUnavailableError } from "./docker-errors";
import { imageInfo, listLabelledContainers, pruneDanglingImages, removeContainer } from "./engine-inventory";
import { createImageBuilder } from "./image-build";
import { runContainer } from "./container-run";
import { readImageFiles } from "./image-files";
import { engineFacts, pullImage, pushImage } from "./image-transfer";
import { pullPublishedImage, tagImage, untagImage } from "./published-image";

/**
 * dockerode behind our DockerEngine interface, for DOCKER_HOST or the default socket. Each job
 * lives in its own file: reaching the engine (engine-connection.ts), building images
 * (image-build.ts), running containers (container-run.ts), reading an image's files (image-files.ts), and what is on the engine
 * (engine-inventory.ts), and moving images through the pool's registry (image-transfer.ts).
 */
export function createDockerEngine(source?: EnvironmentSource): DockerEngine {
  const engine = connectToEngine(source);
  return {
    endpoint: engine.endpoint,
    status: engine.status,
    imageInfo: (tag) => imageInfo(engine, tag),
    buildImage: createImageBuilder(engine),
    runContainer: (options) => runContainer(engine, options),
    readImageFiles: (options) => readImageFiles(engine, options),
    listLabelledContainers: () => listLabelledContainers(engine),
    removeContainer: (id) => removeContainer(engine, id),
    pruneDanglingImages: (budgetBytes, options) => pruneDanglingImages(engine, budgetBytes, options),
    facts: () => engine.call(() => engineFacts(engine.docker, engine.endpoint)),
    pushImage: (tag, registryHost, signal) =>
      engine.call(() =>
        whileEngineAnswers(
          engine,
          pushImage(engine.docker, tag, registryHost, signal),
          (cause) => new DockerUnavailableError(engine.endpoint, cause),
        ),
      ),
    pullPublishedImage: (reference, options) =>
      engine.call(() =>
        whileEngineAnswers(
          engine,
          pullPublishedImage(engine.docker, reference, options),
          (cause) => new DockerUnavailableError(engine.endpoint, cause),
        ),
      ),
    tagImage: (image, name) => engine.call(() => tagImage(engine.docker, image, name)),
    untagImage: (name) => engine.call(() => untagImage(engine.docker, name)),
    pullImage: (tag, registryHost, signal) =>
      engine.call(() =>
        whileEngineAnswers(
          engine,
          pullImage(engine.docker, tag, registryHost, signal),
          (cause) => new DockerUnavailableError(engine.endpoint, cause),
        ),
      ),
  };
}
