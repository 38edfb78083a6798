import type { BrowserContext, Page } from "playwright-core";

// Watches a Chromium context for two things: any script an attacker's text managed to run
// (every payload pushes onto window.__xss), and any Content-Security-Policy violation (a
// blocked injected script, or our own code — Monaco, Next — tripping over the policy).

declare global {
  interface Window {
    __xss?: string[];
    __cspViolations?: string[];
  }
}

export async function watchScriptsAndPolicy(context: BrowserContext) {
  // init scripts are injected by the browser itself, outside the page's CSP
  await context.addInitScript(() => {
    window.__xss = [];
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__cspViolations!.push(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} ${event.sample}`.trim(),
      );
    });
  });
}

export type PageFindings = { ran: string[]; violations: string[]; executableMarkup: string[] };

/** What ran, what the policy blocked, and any element carrying an on* handler or a javascript: URL. */
export function findings(page: Page): Promise<PageFindings> {
  return page.evaluate(() => {
    const executable = [...document.querySelectorAll("*")].filter((el) =>
      [...el.attributes].some((a) => /^on/i.test(a.name) || /^\s*(javascript|vbscript|data:text\/html)/i.test(a.value)),
    );
    // A page rendered on the server carries its data in Next's flight scripts, `self.__next_f.push(<JSON>)`:
    // a payload there is a JSON string, data and not code. Any other script holding a payload was injected.
    const flightData = (text: string) => {
      const match = /^self\.__next_f\.push\(([\s\S]*)\)$/.exec(text.trim());
      if (!match) return false;
      try {
        JSON.parse(match[1]);
        return true;
      } catch {
        return false;
      }
    };
    const injectedScripts = [...document.querySelectorAll("script")].filter(
      (s) => s.textContent?.includes("__xss") && !flightData(s.textContent),
    );
    return {
      ran: window.__xss ?? [],
      violations: window.__cspViolations ?? [],
      executableMarkup: [...executable, ...injectedScripts].map((el) => el.outerHTML.slice(0, 200)),
    };
  });
}
