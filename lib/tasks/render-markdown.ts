import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

// Problem statements are untrusted text from imported datasets (GitHub issues, generated
// requirements): rendered as markdown, then sanitized to an allow-list, so an issue body
// can never run script or load remote content in a curator's browser.

const marked = new Marked({ gfm: true, breaks: false, async: false });

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "blockquote",
    "pre",
    "code",
    "kbd",
    "samp",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "strong",
    "em",
    "b",
    "i",
    "u",
    "s",
    "del",
    "ins",
    "sub",
    "sup",
    "a",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "details",
    "summary",
    "span",
    "input",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel", "target"],
    code: ["class"],
    th: ["align"],
    td: ["align"],
    input: ["type", "checked", "disabled"],
    ol: ["start"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowedClasses: { code: [/^language-[\w-]+$/] },
  // images would be fetched from the internet: an air-gapped dashboard shows their alt text instead
  exclusiveFilter: (frame) => frame.tag === "input" && frame.attribs.type !== "checkbox",
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: "noopener noreferrer nofollow", target: "_blank" },
    }),
    img: (_tagName, attribs) => ({
      tagName: "span",
      attribs: {},
      text: attribs.alt ? `[image: ${attribs.alt}]` : "[image]",
    }),
  },
};

/** Markdown → HTML safe to set as innerHTML (no scripts, handlers, styles, iframes or remote images). */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown ?? "") as string;
  return sanitizeHtml(html, SANITIZE_OPTIONS);
}
