import { defineRoute } from "@/lib/http/define-route";

export const GET = defineRoute("VIEWER", ({ actor }) => Promise.resolve(actor));
