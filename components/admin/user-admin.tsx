"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch, apiFetchAll } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { useActor } from "@/components/auth/actor-context";
import { ResetPasswordButton } from "@/components/auth/reset-password-button";
import { ROLES, type RoleName } from "@/lib/auth/permissions";

type UserRow = { id: string; email: string; name: string | null; role: RoleName; disabled: boolean };

export function UserAdmin() {
  const me = useActor();
  const queryClient = useQueryClient();
  const users = useQuery({ queryKey: queryKeys.users(), queryFn: () => apiFetchAll<UserRow>("/api/v1/users") });
  const [message, setMessage] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.users() });
  const update = useMutation({
    mutationFn: ({ id, ...change }: { id: string; role?: RoleName; disabled?: boolean }) =>
      apiFetch(`/api/v1/users/${id}`, { method: "PATCH", json: change }),
    onSuccess: () => (setMessage("Saved"), refresh()),
    onError: (error) => setMessage(error.message),
  });
  const create = useMutation({
    mutationFn: (input: { email: string; role: RoleName; password: string }) =>
      apiFetch("/api/v1/users", { method: "POST", json: input }),
    onSuccess: () => (setMessage("User created"), refresh()),
    onError: (error) => setMessage(error.message),
  });

  return (
    <div className="space-y-6">
      {message && (
        <p role="status" className="text-sm text-slate-700">
          {message}
        </p>
      )}
      <table className="w-full bg-white text-sm" data-testid="users-table">
        <thead>
          <tr className="border-b text-left text-slate-600">
            <th className="px-3 py-2">Email</th>
            <th className="px-3 py-2">Role</th>
            <th className="px-3 py-2">Active</th>
            <th className="px-3 py-2">Password</th>
          </tr>
        </thead>
        <tbody>
          {users.data?.map((user) => (
            <tr key={user.id} className="border-b">
              <td className="px-3 py-2">{user.email}</td>
              <td className="px-3 py-2">
                <label className="sr-only" htmlFor={`role-${user.id}`}>
                  Role of {user.email}
                </label>
                <select
                  id={`role-${user.id}`}
                  value={user.role}
                  onChange={(e) => update.mutate({ id: user.id, role: e.target.value as RoleName })}
                  className="rounded border px-2 py-1"
                >
                  {ROLES.map((role) => (
                    <option key={role}>{role}</option>
                  ))}
                </select>
              </td>
              <td className="px-3 py-2">
                <label>
                  <input
                    type="checkbox"
                    checked={!user.disabled}
                    disabled={user.id === me.id}
                    onChange={(e) => update.mutate({ id: user.id, disabled: !e.target.checked })}
                  />{" "}
                  active
                </label>
              </td>
              <td className="px-3 py-2">
                <ResetPasswordButton userId={user.id} email={user.email} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        className="flex flex-wrap items-end gap-3 rounded border bg-white p-4"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          create.mutate({
            email: String(form.get("email")),
            role: form.get("role") as RoleName,
            password: String(form.get("password")),
          });
        }}
      >
        <h2 className="w-full font-semibold">Add a user</h2>
        <label className="text-sm">
          Email <input name="email" type="email" required className="ml-1 rounded border px-2 py-1" />
        </label>
        <label className="text-sm">
          Role{" "}
          <select name="role" defaultValue="CURATOR" className="ml-1 rounded border px-2 py-1">
            {ROLES.map((role) => (
              <option key={role}>{role}</option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          Initial password{" "}
          <input name="password" type="password" minLength={12} required className="ml-1 rounded border px-2 py-1" />
        </label>
        <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
          Add user
        </button>
      </form>
    </div>
  );
}
