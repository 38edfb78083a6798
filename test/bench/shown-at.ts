import type { Page } from "playwright-core";
import { waitInPage } from "../helpers/page-tour";

/**
 * Times when something is first on screen, from inside the page: a check (a JS expression)
 * run at every DOM change from the first byte; once it holds, the end of the next frame's
 * rendering is stamped with the page's own clock (ms since navigation began); when the content
 * was in the DOM by the first contentful paint, the time that frame was presented, if later.
 * Waiting from outside with page.goto would also wait for the load event, that is for every
 * script, which a server-rendered page does not need to show its content.
 * Call before page.goto; the returned function waits for the stamp and reads it. The init script
 * stays with the page, so each later navigation of the same page is timed afresh.
 */
/**
 * In-page source that stamps, on the page's clock, when `check` first holds (into `inDom`) and
 * the end of the next frame's rendering after it (into `shown`); both are assignable
 * expressions such as `window.__shownAt`. Once it holds, the observer stops.
 */
export function stampWhenShown(check: string, into: { inDom: string; shown: string }): string {
  return `(() => {
      const check = () => { try { return ${check}; } catch { return false; } };
      const observer = new MutationObserver(() => {
        if (${into.inDom} !== undefined || !check()) return;
        ${into.inDom} = performance.now();
        observer.disconnect();
        // in the DOM is not yet on screen: the next frame is (the browser holds frames while a
        // stylesheet loads), and a task queued from its animation-frame callback runs once that
        // frame's style, layout and paint are done. Queued at user-blocking priority: a plain
        // timer waited behind the tasks already queued, and a trace showed it stamped 205 ms
        // after the frame that painted the content, behind hydration's 114 ms script task
        const afterFrame = (stamp) =>
          globalThis.scheduler?.postTask ? scheduler.postTask(stamp, { priority: "user-blocking" }) : setTimeout(stamp);
        requestAnimationFrame(() => afterFrame(() => { ${into.shown} = performance.now(); }));
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    })()`;
}

const FIRST_PAINT_REPORTED = `performance.getEntriesByName("first-contentful-paint").length > 0`;

/** The stamp, or the first contentful paint's presentation when the content was in the DOM by then and it is later. */
const SHOWN_AT = `(() => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  return paint && window.__inDomAt <= paint.startTime ? Math.max(window.__shownAt, paint.startTime) : window.__shownAt;
})()`;

export async function timeWhenShown(page: Page, check: string): Promise<(timeout?: number) => Promise<number>> {
  await page.addInitScript({
    content: stampWhenShown(check, { inDom: "window.__inDomAt", shown: "window.__shownAt" }),
  });
  return async (timeout = 120_000) => {
    await waitInPage(page, "window.__shownAt !== undefined", timeout);
    // content in the DOM by the first contentful paint is on screen when that frame is presented,
    // which the browser reports later than the main thread finishes the frame (raster and swap)
    await waitInPage(page, FIRST_PAINT_REPORTED, Math.min(timeout, 5_000)).catch(() => undefined);
    return (await page.evaluate(SHOWN_AT)) as number;
  };
}
