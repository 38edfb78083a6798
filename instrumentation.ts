// Next.js calls register() once when the web server starts.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { returnMemoryWhenIdle } = await import("./lib/process/idle-memory");
  returnMemoryWhenIdle();
}
