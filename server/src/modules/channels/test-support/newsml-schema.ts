import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { validateXML } from "xmllint-wasm";

const formats = fileURLToPath(new URL("../formats/", import.meta.url));
const SCHEMA = "NewsML-G2_2.35-spec-All-Power.xsd";
let files: { schema: string; xml: string } | undefined;

/**
 * What libxml2 (xmllint, as WebAssembly) finds wrong with a NewsML-G2 document against IPTC's NewsML-G2 2.35
 * power schema vendored in formats/ (with the W3C xml.xsd it imports): an empty list when the item is valid.
 */
export async function newsmlSchemaErrors(xml: string): Promise<string[]> {
  files ??= {
    schema: fs.readFileSync(`${formats}${SCHEMA}`, "utf8"),
    xml: fs.readFileSync(`${formats}xml.xsd`, "utf8"),
  };
  const result = await validateXML({
    xml: { fileName: "item.xml", contents: xml },
    schema: { fileName: SCHEMA, contents: files.schema },
    preload: { fileName: "xml.xsd", contents: files.xml },
  });
  return result.valid ? [] : result.errors.map((error) => error.rawMessage);
}
