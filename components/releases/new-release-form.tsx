"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";

/** Names a new release of the curated set (POST /api/v1/releases) and opens it. */
export function NewReleaseForm() {
  const router = useRouter();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const release = await apiFetch<{ id: string }>("/api/v1/releases", {
        method: "POST",
        json: { name, description: description || undefined },
      });
      router.push(`/releases/${release.id}`);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3"
      aria-labelledby="new-release-heading"
    >
      <h2 id="new-release-heading" className="w-full text-sm font-semibold">
        New release of the approved tasks
      </h2>
      <label className="flex flex-col text-sm">
        Name
        <input
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="v1.2"
          className="rounded border border-slate-300 px-2 py-1 font-mono"
        />
      </label>
      <label className="flex flex-1 flex-col text-sm">
        Description (optional)
        <input
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          className="rounded border border-slate-300 px-2 py-1"
        />
      </label>
      <Button type="submit" variant="primary" disabled={busy || !name.trim()}>
        {busy ? "Creating…" : "Create release"}
      </Button>
      <div className="w-full">
        <ErrorText error={error} prefix="Not created" />
      </div>
    </form>
  );
}
