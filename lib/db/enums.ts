// Browser-safe enum values (no Prisma client, no pg): client components import these.
export * from "./generated/enums";
