"use client";
import { createContext, useContext } from "react";
import { can, type Permission, type RoleName } from "@/lib/auth/permissions";

export type ClientActor = { id: string; email: string; name: string | null; role: RoleName };

const ActorContext = createContext<ClientActor | null>(null);

export function ActorProvider({ actor, children }: { actor: ClientActor; children: React.ReactNode }) {
  return <ActorContext.Provider value={actor}>{children}</ActorContext.Provider>;
}

export function useActor(): ClientActor {
  const actor = useContext(ActorContext);
  if (!actor) throw new Error("useActor outside the dashboard layout");
  return actor;
}

/** The UI's "may I": hides what the role may not do. The server checks again on every request. */
export function useCan(permission: Permission): boolean {
  return can(useContext(ActorContext)?.role, permission);
}
