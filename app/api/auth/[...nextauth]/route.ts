import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/auth-options";

// next-auth's own endpoints (sign-in, sign-out, session, csrf): public by design.
const handler = (request: Request, context: unknown) => NextAuth(authOptions())(request, context);

export { handler as GET, handler as POST };
