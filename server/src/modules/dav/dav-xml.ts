import { SaxesParser } from "saxes";
import { Invalid } from "../../http/errors.js";

export const DAV_NS = "DAV:";

/** An element of a request body, namespace-resolved. */
export interface XmlElement {
  ns: string;
  local: string;
  children: XmlElement[];
  /** The element's content as self-contained XML (every element declares its namespace), for dead properties. */
  inner: string;
  text: string;
}

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

interface Building {
  element: XmlElement;
  parts: string[];
}

/**
 * Parses a PROPFIND, PROPPATCH or LOCK body strictly (saxes, namespaces on):
 * anything not well-formed, or with a bad namespace declaration, is a 400.
 */
export function parseXml(body: Buffer): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  const stack: Building[] = [];
  let root: XmlElement | undefined;
  let failure: Error | undefined;
  parser.on("error", (error) => {
    failure ??= error;
  });
  parser.on("opentag", (tag) => {
    const element: XmlElement = { ns: tag.uri ?? "", local: tag.local ?? tag.name, children: [], inner: "", text: "" };
    const parent = stack.at(-1);
    if (parent) parent.element.children.push(element);
    else root = element;
    stack.push({ element, parts: [] });
  });
  parser.on("text", (text) => {
    const current = stack.at(-1);
    if (!current) return;
    current.element.text += text;
    current.parts.push(escapeXml(text));
  });
  parser.on("closetag", () => {
    const done = stack.pop();
    if (!done) return;
    done.element.inner = done.parts.join("");
    const parent = stack.at(-1);
    if (parent) parent.parts.push(elementXml(done.element.ns, done.element.local, done.element.inner));
  });
  try {
    parser.write(body.toString("utf8")).close();
  } catch (error) {
    failure ??= error as Error;
  }
  if (failure || !root) throw new Invalid(`the XML body is not well-formed: ${failure?.message ?? "empty"}`, "bad_xml");
  return root;
}

/** `<x:local xmlns:x="ns">inner</x:local>`, self-contained (the empty namespace as `xmlns=""`). */
export function elementXml(ns: string, local: string, inner: string | null): string {
  const open = ns === DAV_NS ? `D:${local}` : ns === "" ? local : `x:${local}`;
  const declaration = ns === DAV_NS ? "" : ns === "" ? ' xmlns=""' : ` xmlns:x="${escapeXml(ns)}"`;
  if (inner === null || inner === "") return `<${open}${declaration}/>`;
  return `<${open}${declaration}>${inner}</${open}>`;
}

export function is(element: XmlElement | undefined, local: string, ns = DAV_NS): boolean {
  return element?.ns === ns && element.local === local;
}

/** A property's name as one key: `{ns}local`. */
export function propertyKey(ns: string, local: string): string {
  return `{${ns}}${local}`;
}

export function splitKey(key: string): { ns: string; local: string } {
  const end = key.indexOf("}");
  return { ns: key.slice(1, end), local: key.slice(end + 1) };
}

export const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';
