// The layer order of docs/architecture.md, enforced: app → components → lib/<feature> →
// lib/db, lib/docker (and lib/config, lib/errors); workers → lib. Each zone says "files under target may
// not import files under from". Paths are from the project root; "@/…" imports resolve through
// tsconfig like relative ones, so a relative import is held to the same zones.

const FEATURE_COMPONENTS = [
  "admin",
  "environments",
  "imports",
  "jobs",
  "releases",
  "tasks",
  "trajectory",
  "validation",
  "views",
];
const SHARED_COMPONENTS = ["ui", "editor", "diff", "charts", "markdown"];

/**
 * Every folder under lib/, from the ground up: a folder may import only the folders before it
 * (and itself). docs/architecture.md says each step as a sentence; test/unit/layer-rule.test.ts
 * holds this list to the folders on disk, so a new folder must take its place here first.
 */
export const LIB_ORDER = [
  // the ground: helpers every layer may use
  "errors",
  "async",
  "json",
  "csv",
  "config",
  "process",
  // the database and the Docker engine, and the embedded PostgreSQL service that serves the database
  "db",
  "database-server",
  "docker",
  "audit",
  // the features, each building on those before it
  "auth",
  "users",
  "metrics",
  "validation",
  "live-logs",
  "tasks",
  "environments",
  "jobs",
  "worker-runtime",
  "builds",
  "runs",
  "trajectories",
  "views",
  "analytics",
  "curation",
  "campaigns",
  "exports",
  "releases",
  "imports",
  // the edges that call the features: HTTP routes and the CLI
  "http",
  "cli",
];

/** One zone per lib folder: it may import only itself and the folders below it in LIB_ORDER. */
const libOrderZones = LIB_ORDER.map((folder, floor) => {
  const below = LIB_ORDER.slice(0, floor);
  return {
    target: `./lib/${folder}`,
    from: "./lib",
    except: [folder, ...below].map((name) => `./${name}`),
    message:
      `lib/${folder} may import only the folders below it in the feature order of docs/architecture.md ` +
      `(${below.length ? below.join(", ") : "none"}): what it needs from a higher folder is passed in by the caller, ` +
      `or moves down to the folder that owns it`,
  };
});

/** A lib folder missing from LIB_ORDER may import nothing of lib/ until it takes its place there. */
const undeclaredLibFolder = {
  target: `./lib/!(${LIB_ORDER.join("|")})/**`,
  from: "./lib",
  message:
    "This lib/ folder has no place in LIB_ORDER (eslint.layers.mjs): " +
    "add it there and its sentence to docs/architecture.md",
};

/**
 * Inside lib/imports a file walks detect -> read -> map -> write (lib/imports/README.md). Bottom up:
 * read/ (generic readers) and records/ (the shapes a mapper makes and a writer stores) lean on
 * nothing else of imports; write/ on records/ and the run; formats/ (detection, the registry,
 * and one folder per format: its index.ts, its map.ts, and its import.ts that hands what map
 * made to write/) on read/, records/ and the run — only an import.ts on write/. The pipeline
 * that walks them —
 * documents/, importers.ts, import-file.ts, import-job.ts, import-context.ts, upload-import.ts —
 * sits above all four, so none of them may import it.
 */
const IMPORTS_PIPELINE = [
  "documents",
  "importers.ts",
  "import-file.ts",
  "import-job.ts",
  "import-context.ts",
  "upload-import.ts",
].map((name) => `./lib/imports/${name}`);
const importsWalkZones = [
  ...["read", "records"].map((folder) => ({
    target: `./lib/imports/${folder}`,
    from: "./lib/imports",
    except: [`./${folder}`],
    message:
      `lib/imports/${folder} is the ground of the import walk: it may import nothing else of lib/imports ` +
      "(what it needs from a format, a writer or the pipeline is passed in by the caller)",
  })),
  {
    target: "./lib/imports/write",
    from: ["./lib/imports/formats", ...IMPORTS_PIPELINE],
    message:
      "lib/imports/write stores mapped records (lib/imports/records): it may not import a format's detector " +
      "or mapper (lib/imports/formats) nor the pipeline that calls it",
  },
  {
    // detection and mapping come before writing; a format's import.ts is where its map meets write
    target: ["./lib/imports/formats/*.ts", "./lib/imports/formats/*/!(import).ts"],
    from: "./lib/imports/write",
    message:
      "a format's detection and mapping (lib/imports/formats, all but a format's import.ts) may not import " +
      "lib/imports/write: map into lib/imports/records, and let the format's import.ts hand the records to the writer",
  },
  {
    target: "./lib/imports/formats",
    from: IMPORTS_PIPELINE,
    message:
      "lib/imports/formats (a format's detection and mapping) may not import the pipeline that walks it " +
      "(documents/, importers, import-file, import-job, import-context, upload-import): the pipeline calls the format",
  },
];

/** @type {Array<{ target: string | string[]; from: string | string[]; except?: string[]; message: string }>} */
export const LAYER_ZONES = [
  // the domain knows nothing of who calls it
  {
    target: "./lib",
    from: ["./app", "./components", "./workers", "./scripts"],
    message:
      "lib/ is the domain: it may not import app/, components/, workers/ or scripts/ (they call lib/, never the reverse)",
  },
  {
    target: "./components",
    from: ["./app", "./workers"],
    message:
      "components/ may not import app/ or workers/: a component takes what it needs from lib/ or through /api/v1",
  },
  {
    target: "./workers",
    from: ["./app", "./components"],
    message: "workers/ may not import app/ or components/: a processor calls lib/",
  },
  // one door per read: a page or a route reads through lib/<feature>, never the database client
  {
    target: ["./app", "./components"],
    from: "./lib/db",
    except: ["./enums.ts"],
    message:
      "app/ and components/ do not touch the database: a page reads through the lib/<feature> " +
      "read function its API route calls (its db from pageContext in lib/http/page-context.ts), " +
      "a route through defineRoute's db; only lib/db/enums may be imported",
  },
  // the generated Prisma client is reached through lib/db/client only, relative imports included
  {
    target: ["./lib/!(db)/**", "./workers", "./scripts", "./app", "./components"],
    from: "./lib/db/generated",
    message: "import the Prisma client and its types from lib/db/client, not lib/db/generated",
  },
  ...libOrderZones,
  undeclaredLibFolder,
  ...importsWalkZones,
  // components: shared pieces below feature areas; feature areas one way
  {
    target: SHARED_COMPONENTS.map((area) => `./components/${area}`),
    from: "./components",
    except: SHARED_COMPONENTS.map((area) => `./${area}`),
    message:
      "components/ui, editor, diff, charts and markdown are shared pieces: they may import only each other (a feature area imports them)",
  },
  {
    target: "./components/auth",
    from: FEATURE_COMPONENTS.map((area) => `./components/${area}`),
    message: "components/auth (who is signed in) sits below every feature area and imports none",
  },
  {
    target: "./components/environments",
    from: "./components/tasks",
    message: "components/tasks builds on components/environments, not the reverse",
  },
  {
    target: "./components/validation",
    from: ["./components/tasks", "./components/environments"],
    message: "components/tasks and environments build on components/validation, not the reverse",
  },
  {
    target: "./components/jobs",
    from: ["./components/tasks", "./components/environments", "./components/validation"],
    message: "components/validation builds on components/jobs, not the reverse",
  },
];

/** The flat-config block that turns the zones on. */
export const layerRules = {
  files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
  rules: { "import/no-restricted-paths": ["error", { zones: LAYER_ZONES }] },
};
