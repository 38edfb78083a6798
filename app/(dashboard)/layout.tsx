import { pageActor } from "@/lib/auth/session";
import { ActorProvider } from "@/components/auth/actor-context";
import { Nav } from "@/components/nav/nav";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const actor = await pageActor();
  return (
    <ActorProvider actor={actor}>
      <Nav />
      <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
    </ActorProvider>
  );
}
