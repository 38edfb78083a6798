import { contentText, finiteInt, finiteNumber, makeStep, type StepRecord } from "../records/trajectory-record";

// Steps from a chat transcript (OpenAI-style messages), the shape SWE-agent's `history`,
// mini-swe-agent's `messages` and SWE-Gym's trajectory rows share: an assistant turn's text
// is the thought, its tool call(s) or command the action, and the tool/user messages that
// follow it, up to the next assistant turn, the observation. The system prompt,
// demonstrations and the task before the first assistant turn are not steps.

type Json = Record<string, unknown>;

/** `name(arguments)` per tool call; SWE-agent demonstrations store the list as a Python repr string. */
export function toolCallsText(calls: unknown): string | null {
  if (typeof calls === "string") return calls.trim() && calls !== "[]" ? calls : null;
  if (!Array.isArray(calls) || !calls.length) return null;
  return calls
    .map((call) => {
      const fn = (call as Json)?.function as Json | string | undefined;
      if (typeof fn === "string") return `${fn}(${JSON.stringify((call as Json).arguments ?? {})})`; // Inspect's shape
      return fn
        ? `${fn.name}(${typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {})})`
        : JSON.stringify(call);
    })
    .join("\n");
}

// mini-swe-agent's reply carries its one command in a fenced block (```bash or ```mswea_bash_command)
const FENCED_COMMAND = /```(?:bash|sh|mswea_bash_command)[^\S\n]*\n([\s\S]*?)```/;

function commandsOf(message: Json, text: string | null): string | null {
  const actions = (message.extra as Json | undefined)?.actions;
  if (Array.isArray(actions) && actions.length) {
    const commands = actions.map((a) => (a as Json)?.command).filter((c): c is string => typeof c === "string");
    if (commands.length) return commands.join("\n");
  }
  const fenced = text ? FENCED_COMMAND.exec(text) : null;
  return fenced ? fenced[1].replace(/^(?:[^\S\n]*\n)+/, "").trimEnd() : null; // blank lines after the fence are not the command
}

type OpenStep = {
  thought: string | null;
  action: string | null;
  observation: string[];
  tokensIn: number | null;
  tokensOut: number | null;
  metadata: Json;
};

/** Feed messages in order; each call returns the steps it completed (at most one), then call finish(). */
export class ChatStepper {
  private current: OpenStep | null = null;
  count = 0;

  constructor(private readonly derivedFrom: string) {}

  add(raw: unknown): StepRecord[] {
    const message = (raw ?? {}) as Json;
    if (message.is_demo || message.role === "system" || message.message_type === "demonstration") return [];
    if (message.role === "assistant") {
      const done = this.finish();
      const text = contentText(message.content);
      const action =
        typeof message.action === "string"
          ? message.action
          : (toolCallsText(message.tool_calls) ?? commandsOf(message, text));
      const thought = typeof message.thought === "string" ? message.thought : text;
      const usage = ((message.extra as Json | undefined)?.response as Json | undefined)?.usage as Json | undefined;
      const cost = finiteNumber((message.extra as Json | undefined)?.cost);
      this.current = {
        thought,
        action: action ?? (thought === text ? null : text),
        observation: [],
        tokensIn: finiteInt(usage?.prompt_tokens),
        tokensOut: finiteInt(usage?.completion_tokens),
        metadata: { derivedFrom: this.derivedFrom, ...(cost !== null ? { costUsd: cost } : {}) },
      };
      return done;
    }
    if (this.current) {
      const text = contentText(message.content);
      if (text) this.current.observation.push(text);
      const returncode = (message.extra as Json | undefined)?.returncode;
      if (typeof returncode === "number") this.current.metadata.exitCode = returncode;
    }
    return [];
  }

  finish(): StepRecord[] {
    if (!this.current) return [];
    const { observation, ...rest } = this.current;
    this.current = null;
    this.count++;
    return [makeStep({ ...rest, observation: observation.length ? observation.join("\n") : null })];
  }
}

/** All steps of a transcript that is already in memory (a record of a JSONL file, a verdict's trajectory). */
export function chatSteps(messages: unknown[], derivedFrom: string): StepRecord[] {
  const stepper = new ChatStepper(derivedFrom);
  return [...messages.flatMap((m) => stepper.add(m)), ...stepper.finish()];
}
