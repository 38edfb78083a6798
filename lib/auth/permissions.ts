// One role → permissions map drives both the server's checks and the UI's "may I".
export const ROLES = ["VIEWER", "CURATOR", "ADMIN"] as const;
export type RoleName = (typeof ROLES)[number];

const RANK: Record<RoleName, number> = { VIEWER: 0, CURATOR: 1, ADMIN: 2 };

export const PERMISSIONS = {
  "tasks:read": "VIEWER",
  "tasks:decide": "CURATOR",
  "tasks:edit": "CURATOR",
  "environments:edit": "CURATOR",
  "jobs:run": "CURATOR",
  "imports:run": "CURATOR",
  "exports:run": "VIEWER",
  /** naming a snapshot of the curated set is a curator's (or admin's) call */
  "releases:create": "CURATOR",
  "views:save": "VIEWER",
  "users:manage": "ADMIN",
  "tokens:manage": "VIEWER",
  "account:manage": "VIEWER",
  "settings:manage": "ADMIN",
  "campaigns:annotate": "CURATOR",
  "campaigns:manage": "ADMIN",
} as const satisfies Record<string, RoleName>;

export type Permission = keyof typeof PERMISSIONS;

export function roleAtLeast(role: RoleName, minimum: RoleName): boolean {
  return RANK[role] >= RANK[minimum];
}

export function can(role: RoleName | undefined | null, permission: Permission): boolean {
  return !!role && roleAtLeast(role, PERMISSIONS[permission]);
}

/** Every role that holds a permission (for queries: who may be assigned, who is an admin). */
export const rolesWith = (permission: Permission): RoleName[] => ROLES.filter((role) => can(role, permission));

// ─── API token scopes ───
// A bearer token does what its scopes allow AND its owner's role allows, both checked on
// every request: a token never outgrows a demoted owner, nor its own scopes.
export const TOKEN_SCOPES = ["read", "curate", "run", "admin"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** The scope a token needs to use a permission for a change (reads need "read", see requiredScope). */
const PERMISSION_SCOPE: Record<Permission, TokenScope> = {
  "tasks:read": "read",
  "exports:run": "read",
  "views:save": "read",
  "tasks:decide": "curate",
  "tasks:edit": "curate",
  "releases:create": "curate",
  "environments:edit": "curate",
  "jobs:run": "run",
  "imports:run": "run",
  "users:manage": "admin",
  "tokens:manage": "admin",
  "account:manage": "admin",
  "settings:manage": "admin",
  "campaigns:annotate": "curate",
  "campaigns:manage": "admin",
};

/** The lowest role that may hold a scope: a VIEWER cannot mint a "curate" token. */
export const SCOPE_MIN_ROLE: Record<TokenScope, RoleName> = {
  read: "VIEWER",
  curate: "CURATOR",
  run: "CURATOR",
  admin: "ADMIN",
};

/** GET/HEAD need "read", except admin-only reads (users, tokens), which need "admin". */
export function requiredScope(permission: Permission, method: string): TokenScope {
  const scope = PERMISSION_SCOPE[permission];
  return (method === "GET" || method === "HEAD") && scope !== "admin" ? "read" : scope;
}

export const scopesForRole = (role: RoleName): TokenScope[] =>
  TOKEN_SCOPES.filter((scope) => roleAtLeast(role, SCOPE_MIN_ROLE[scope]));
