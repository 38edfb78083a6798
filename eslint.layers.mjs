// The layer order of docs/architecture.md, enforced: app → components → lib/<feature> →
// lib/db, lib/docker (and lib/config, lib/errors); workers → lib. Each zone says "files under target may
// not import files under from". Paths are from the project root; "@/…" imports resolve through
// tsconfig like relative ones.

const FEATURE_COMPONENTS = ["admin", "environments", "imports", "jobs", "releases", "tasks", "trajectory", "validation", "views"];
const SHARED_COMPONENTS = ["ui", "editor", "diff", "charts", "markdown"];

/** @type {Array<{ target: string | string[]; from: string | string[]; except?: string[]; message: string }>} */
export const LAYER_ZONES = [
  // the domain knows nothing of who calls it
  { target: "./lib", from: ["./app", "./components", "./workers", "./scripts"], message: "lib/ is the domain: it may not import app/, components/, workers/ or scripts/ (they call lib/, never the reverse)" },
  { target: "./components", from: ["./app", "./workers"], message: "components/ may not import app/ or workers/: a component takes what it needs from lib/ or through /api/v1" },
  { target: "./workers", from: ["./app", "./components"], message: "workers/ may not import app/ or components/: a processor calls lib/" },
  // the ground floor: the database and the Docker engine import no feature
  { target: "./lib/db", from: "./lib", except: ["./db", "./config", "./errors"], message: "lib/db is the ground floor: it may import only lib/db, lib/config and lib/errors; pass what it needs in from the caller" },
  { target: "./lib/docker", from: "./lib", except: ["./docker", "./config", "./errors"], message: "lib/docker is the ground floor: it may import only lib/docker, lib/config and lib/errors; pass what it needs in from the caller" },
  { target: "./lib/config", from: "./lib", except: ["./config", "./errors"], message: "lib/config is read by every layer: it may import only lib/errors" },
  { target: "./lib/errors", from: "./lib", except: ["./errors"], message: "lib/errors is imported by every layer and imports none" },
  { target: "./lib/async", from: "./lib", except: ["./async"], message: "lib/async (waiting helpers) is imported by every layer and imports none" },
  // lib/http is the routes' edge: features are called by it, never call it
  { target: "./lib/!(http|cli)/**", from: "./lib/http", message: "lib/http is the HTTP edge used by app/ routes; a feature may not import it (move what both need into lib/db or the feature)" },
  // one-way pairs among features: the second builds on the first
  { target: "./lib/tasks", from: "./lib/curation", message: "lib/curation builds on lib/tasks, not the reverse: pass curation's values (settings) into lib/tasks from the caller" },
  { target: "./lib/tasks", from: "./lib/analytics", message: "lib/analytics builds on lib/tasks, not the reverse: resolve an analytics slice in the caller (withResolvedSlice) and pass it in the list's context" },
  { target: "./lib/jobs", from: "./lib/worker-runtime", message: "lib/worker-runtime builds on lib/jobs (enqueueing), not the reverse" },
  // components: shared pieces below feature areas; feature areas one way
  {
    target: SHARED_COMPONENTS.map((area) => `./components/${area}`),
    from: "./components",
    except: SHARED_COMPONENTS.map((area) => `./${area}`),
    message: "components/ui, editor, diff, charts and markdown are shared pieces: they may import only each other (a feature area imports them)",
  },
  { target: "./components/auth", from: FEATURE_COMPONENTS.map((area) => `./components/${area}`), message: "components/auth (who is signed in) sits below every feature area and imports none" },
  { target: "./components/environments", from: "./components/tasks", message: "components/tasks builds on components/environments, not the reverse" },
  { target: "./components/validation", from: ["./components/tasks", "./components/environments"], message: "components/tasks and environments build on components/validation, not the reverse" },
  { target: "./components/jobs", from: ["./components/tasks", "./components/environments", "./components/validation"], message: "components/validation builds on components/jobs, not the reverse" },
];

/** The flat-config block that turns the zones on. */
export const layerRules = {
  files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
  rules: { "import/no-restricted-paths": ["error", { zones: LAYER_ZONES }] },
};
