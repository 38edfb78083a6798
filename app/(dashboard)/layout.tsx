import { pageActor } from "@/lib/auth/session";
import { ActorProvider } from "@/components/auth/actor-context";
import { Nav } from "@/components/nav/nav";
import { MAIN_ID, SkipLink } from "@/components/ui/skip-link";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const actor = await pageActor();
  return (
    <ActorProvider actor={actor}>
      <SkipLink />
      <Nav />
      <main id={MAIN_ID} tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 focus:outline-none">
        {children}
      </main>
    </ActorProvider>
  );
}
