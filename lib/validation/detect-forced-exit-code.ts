export type ForcedExitFinding = { line: number; text: string; why: string };

const TEST_COMMAND =
  /\b(pytest|py\.test|python\d*(\.\d+)?\s+-m\s+(pytest|unittest)|runtests\.py|bin\/test|tox|nosetests|manage\.py\s+test|npm\s+(run\s+)?test|yarn\s+test|go\s+test|cargo\s+test|mvn|gradle|phpunit|rspec|jest|vitest|make\s+(test|check))\b/;
const SWALLOWED = /\|\|\s*(true|:|exit\s+0|echo\b)/;
const LITERAL_MARKER = /\b(OPENSWE_EXIT_CODE|SWEBENCH_TEST_EXIT_CODE)=\d+|>>>>> Test Exit Code: \d+/;
const EXIT_ZERO = /(^|[;&|]\s*|\bthen\s+|\belse\s+|\bdo\s+)exit\s+0\b/;
const TRAP_EXIT_ZERO = /\btrap\s+['"][^'"]*exit\s+0/;

/** Script lines outside heredoc bodies (patches embedded with `<<'EOF'` may contain anything). */
export function codeLines(script: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  let heredocEnd: string | undefined;
  script.split("\n").forEach((raw, index) => {
    const text = raw.replace(/\r$/, "");
    if (heredocEnd !== undefined) {
      if (text.trim() === heredocEnd) heredocEnd = undefined;
      return;
    }
    const trimmed = text.trim();
    if (!trimmed || trimmed.startsWith("#")) return;
    out.push({ line: index + 1, text: trimmed });
    const heredoc = /<<-?\s*(['"]?)([A-Za-z_][\w]*)\1/.exec(trimmed);
    if (heredoc) heredocEnd = heredoc[2];
  });
  return out;
}

/**
 * Ways an eval script decides its own verdict instead of reporting the tests': a literal
 * `exit 0`, `|| true` (or `|| :`, `|| exit 0`) on the test command, a marker printed with
 * a constant, or a trap that exits 0. Any of these makes a run's exit code meaningless.
 */
export function detectForcedExitCode(script: string): ForcedExitFinding[] {
  const findings: ForcedExitFinding[] = [];
  for (const { line, text } of codeLines(script)) {
    if (TEST_COMMAND.test(text) && SWALLOWED.test(text))
      findings.push({ line, text, why: "the test command's failure is swallowed" });
    else if (EXIT_ZERO.test(text)) findings.push({ line, text, why: "the script exits 0 whatever the tests did" });
    else if (TRAP_EXIT_ZERO.test(text)) findings.push({ line, text, why: "a trap forces exit 0" });
    if (/\becho\b|\bprintf\b/.test(text) && LITERAL_MARKER.test(text))
      findings.push({ line, text, why: "the exit-code marker is a constant" });
  }
  return findings;
}
