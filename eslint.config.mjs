import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: [".next/**", "node_modules/**", ".data/**", "lib/db/generated/**", "next-env.d.ts", "public/**"] },
  {
    rules: {
      // the architecture's layering: routes call lib/, never Prisma or Docker directly
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/lib/db/generated/*"], message: "import from lib/db/client" }] }],
    },
  },
];

export default config;
