import { ActorProvider, type ClientActor } from "@/components/auth/actor-context";
import { MAIN_ID, SkipLink } from "@/components/ui/skip-link";
import { Nav } from "./nav";

/** What every signed-in page stands in: skip link, navigation, and the one main landmark. */
export function DashboardFrame({ actor, children }: { actor: ClientActor; children: React.ReactNode }) {
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
