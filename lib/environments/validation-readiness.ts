import type { ImageSource } from "../db/client";
import { serverConfig, type ServerConfig } from "../config/server-config";
import { allowedRegistries, decideRegistry } from "./image-reference";

// Whether a task's environment can be validated at all, decided the same way for the task page
// (which then offers no Validate, but the ways forward) and for the API (which refuses with the
// sentence). A task never reaches a worker only to fail for want of an environment.

export type ReadinessEnvironment = { key: string; imageSource: ImageSource; imageReference: string | null };

export type Readiness = { ready: true } | { ready: false; missing: string };

type ReadinessConfig = Pick<
  ServerConfig,
  "IMAGE_REGISTRIES" | "IMAGE_REGISTRY_CREDENTIALS" | "SPEC_BUILD_NETWORK_ENGINES"
>;

export function validationReadiness(
  environment: ReadinessEnvironment,
  taskName: string,
  config: ReadinessConfig = serverConfig(),
): Readiness {
  switch (environment.imageSource) {
    case "RECIPE":
      return { ready: true };
    case "NONE":
      return {
        ready: false,
        missing: `Task ${taskName} has no environment yet: its dataset row carries no recipe, names no published image and matches no harness spec; use the dataset's image, generate one from the harness spec, or write a recipe on its environment's page.`,
      };
    case "IMAGE": {
      const decision = decideRegistry(environment.imageReference ?? "", allowedRegistries(config));
      return decision.allowed
        ? { ready: true }
        : { ready: false, missing: `Task ${taskName} cannot be validated yet: ${decision.reason}.` };
    }
    case "SPEC":
      return config.SPEC_BUILD_NETWORK_ENGINES
        ? { ready: true }
        : {
            ready: false,
            missing: `Task ${taskName} cannot be validated yet: its environment is generated from the harness spec, whose build installs packages, and no engine may build with a network; an admin names one in SPEC_BUILD_NETWORK_ENGINES.`,
          };
  }
}
