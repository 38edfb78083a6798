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
  "views:save": "VIEWER",
  "users:manage": "ADMIN",
  "tokens:manage": "VIEWER",
  "settings:manage": "ADMIN",
} as const satisfies Record<string, RoleName>;

export type Permission = keyof typeof PERMISSIONS;

export function roleAtLeast(role: RoleName, minimum: RoleName): boolean {
  return RANK[role] >= RANK[minimum];
}

export function can(role: RoleName | undefined | null, permission: Permission): boolean {
  return !!role && roleAtLeast(role, PERMISSIONS[permission]);
}
