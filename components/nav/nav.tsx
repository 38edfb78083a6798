"use client";
import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";
import { useActor } from "@/components/auth/actor-context";
import { can, type Permission } from "@/lib/auth/permissions";

const LINKS: { href: string; label: string; permission: Permission }[] = [
  { href: "/tasks", label: "Tasks", permission: "tasks:read" },
  { href: "/environments", label: "Environments", permission: "tasks:read" },
  { href: "/review", label: "Review queue", permission: "tasks:decide" },
  { href: "/campaigns", label: "Campaigns", permission: "campaigns:annotate" },
  { href: "/agreement", label: "Agreement", permission: "tasks:read" },
  { href: "/reviewers", label: "Reviewers", permission: "tasks:read" },
  { href: "/trajectories/labels", label: "Step labels", permission: "tasks:read" },
  { href: "/trajectories/search", label: "Search trajectories", permission: "tasks:read" },
  { href: "/analytics", label: "Analytics", permission: "tasks:read" },
  { href: "/releases", label: "Releases", permission: "tasks:read" },
  { href: "/imports", label: "Imports", permission: "imports:run" },
  { href: "/jobs", label: "Jobs", permission: "tasks:read" },
  { href: "/admin/users", label: "Users", permission: "users:manage" },
  { href: "/settings/tokens", label: "API tokens", permission: "tokens:manage" },
  { href: "/settings/api", label: "API reference", permission: "tasks:read" },
  { href: "/settings/account", label: "Account", permission: "tokens:manage" },
];

export function Nav() {
  const actor = useActor();
  const pathname = usePathname();
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-7xl flex-wrap items-center gap-1 px-4 py-2 whitespace-nowrap"
      >
        <Link href="/tasks" className="mr-4 font-semibold text-slate-900">
          SWE Curator
        </Link>
        {LINKS.filter((link) => can(actor.role, link.permission)).map((link) => {
          const active = pathname === link.href || pathname.startsWith(link.href + "/");
          return (
            <Link
              key={link.href}
              href={link.href}
              aria-current={active ? "page" : undefined}
              className={`rounded px-3 py-1.5 text-sm ${active ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`}
            >
              {link.label}
            </Link>
          );
        })}
        <span className="ml-auto text-sm text-slate-600" data-testid="whoami">
          {actor.email} · <span className="font-medium">{actor.role}</span>
        </span>
        <button
          type="button"
          onClick={() => signOut({ callbackUrl: "/signin" })}
          className="ml-3 rounded border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100"
        >
          Sign out
        </button>
      </nav>
    </header>
  );
}
