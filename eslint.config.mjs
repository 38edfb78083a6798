import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import regexp from "eslint-plugin-regexp";
import { layerRules } from "./eslint.layers.mjs";

const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: [".next/**", "node_modules/**", ".data/**", "lib/db/generated/**", "next-env.d.ts", "public/**"] },
  {
    rules: {
      // the architecture's layering: routes call lib/, never Prisma or Docker directly
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ group: ["**/lib/db/generated/*"], message: "import from lib/db/client" }],
          paths: [
            {
              name: "next/link",
              message: "use Link from components/ui/link (it does not prefetch: every page here is a server render)",
            },
          ],
        },
      ],
      // `const { dropped, ...kept } = row` is how a copy leaves fields out (a `delete` slows every later read of the object)
      "@typescript-eslint/no-unused-vars": ["warn", { ignoreRestSiblings: true }],
    },
  },
  { files: ["components/ui/link.tsx"], rules: { "no-restricted-imports": "off" } },
  // the layer order of docs/architecture.md: a wrong-way import fails the lint
  layerRules,
  {
    // a log line may be 1 MiB: a regex that backtracks super-linearly would hold a worker for hours
    files: ["lib/**/*.ts", "lib/**/*.tsx", "workers/**/*.ts", "app/**/*.ts", "app/**/*.tsx"],
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-backtracking": ["error", { report: "potential" }],
      "regexp/no-super-linear-move": ["error", { report: "potential", ignoreSticky: false, ignorePartial: false }],
    },
  },
  {
    // one typed, validated configuration: every variable is read through lib/config/server-config.ts
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message:
            "Read configuration through serverConfig() from lib/config/server-config.ts (add the variable to its schema and to the README's table).",
        },
      ],
    },
  },
  {
    // the config module itself; launchers, tests and tool configs that pass the environment on to child processes or tools;
    // Next's instrumentation hook, which reads the runtime Next itself sets (NEXT_RUNTIME), not configuration
    files: [
      "lib/config/**",
      "scripts/**",
      "test/**",
      "bin/**",
      "next.config.ts",
      "prisma.config.ts",
      "vitest.config.ts",
      "instrumentation.ts",
    ],
    rules: { "no-restricted-properties": "off" },
  },
];

export default config;
