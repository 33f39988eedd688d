// A fetched body as text an agent can read. HTML goes through html-to-text (a real HTML parser, htmlparser2,
// underneath: entities, broken markup, scripts and styles are its job, not ours): navigation, footers, images
// and scripts are left out, headings keep their case, links keep their target. Other text types are decoded
// as they are; anything else is refused with what it was.
import { compile } from "html-to-text";

const htmlToText = compile({
  wordwrap: false,
  selectors: [
    { selector: "img", format: "skip" },
    { selector: "nav", format: "skip" },
    { selector: "footer", format: "skip" },
    { selector: "noscript", format: "skip" },
    { selector: "svg", format: "skip" },
    { selector: "form", format: "skip" },
    { selector: "a", options: { hideLinkHrefIfSameAsText: true, linkBrackets: ["<", ">"] } },
    ...["h1", "h2", "h3", "h4", "h5", "h6"].map((h) => ({ selector: h, options: { uppercase: false } })),
    { selector: "table", format: "dataTable" },
  ],
});
const titleOf = compile({ wordwrap: false, baseElements: { selectors: ["title"], returnDomByDefault: false } });

export interface PageText {
  readonly text: string;
  /** The HTML page's <title>, when it has one. */
  readonly title?: string;
}

function mediaType(contentType: string): string {
  return contentType.split(";")[0]!.trim().toLowerCase();
}

function isHtml(type: string): boolean {
  return type === "text/html" || type === "application/xhtml+xml";
}

/** Whether a body of this content type can be read as text (an empty type is sniffed as text). */
export function isReadableType(contentType: string): boolean {
  const type = mediaType(contentType);
  return (
    type === "" ||
    type.startsWith("text/") ||
    isHtml(type) ||
    type === "application/json" ||
    type === "application/xml" ||
    type.endsWith("+json") ||
    type.endsWith("+xml")
  );
}

/** Decodes with the charset the response names (UTF-8 when it names none or one Node does not know). */
export function decodeBody(body: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/** The readable text of a body of `contentType`; throws when it is not text (an image, an archive...). */
export function pageText(body: Buffer, contentType: string): PageText {
  if (!isReadableType(contentType))
    throw new Error(`the page is ${mediaType(contentType)} (${body.length} bytes), not text: fetch_url reads text.`);
  const decoded = decodeBody(body, contentType);
  const type = mediaType(contentType);
  const html = isHtml(type) || (type === "" && /^\s*<(!doctype html|html)/i.test(decoded));
  if (!html) return { text: decoded.trim() };
  const title = titleOf(decoded).trim();
  return { text: htmlToText(decoded).trim(), ...(title !== "" ? { title } : {}) };
}
