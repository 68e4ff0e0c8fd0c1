import { REQUIRED_SERVER_KEYS } from "../src/config/schema.js";

/** The part of JSON Schema this renderer reads. */
interface Node {
  type?: string;
  properties?: Record<string, Node>;
  required?: string[];
  items?: Node;
  additionalProperties?: Node | boolean;
  default?: unknown;
  description?: string;
  exclusiveMinimum?: number;
  minItems?: number;
}

/** Markers around the generated part of docs/configuration.md; text outside them is hand-written. */
export const BEGIN_MARKER = "<!-- BEGIN GENERATED KEY TABLE (npm run schema) -->";
export const END_MARKER = "<!-- END GENERATED KEY TABLE -->";

/**
 * Renders the key tables of docs/configuration.md from the bridge.toml JSON Schema: one table per
 * TOML table (`[bridge]`, `[[server]]`, its `languages` entries, `[[workspace]]`), keys in schema
 * order, with type, default, whether required, and the schema's description. Deterministic.
 */
export function renderKeyTable(schema: Node): string {
  const top = schema.properties ?? {};
  const server = top.server?.items ?? {};
  const sections: [string, Node, string[]][] = [
    ["[bridge]", top.bridge ?? {}, []],
    ["[shared]", top.shared ?? {}, []],
    ["[[server]]", server, [...REQUIRED_SERVER_KEYS]],
    ["[[server]] languages = [ { … } ]", server.properties?.languages?.items ?? {}, []],
    ["[[workspace]]", top.workspace?.items ?? {}, []],
  ];
  return sections.map(([title, node, mergedRequired]) => renderSection(title, node, mergedRequired)).join("\n");
}

/** Replaces the text between the markers of `doc` with `table`; throws if the markers are missing. */
export function spliceKeyTable(doc: string, table: string): string {
  const begin = doc.indexOf(BEGIN_MARKER);
  const end = doc.indexOf(END_MARKER);
  if (begin < 0 || end < begin) throw new Error("docs/configuration.md lacks the generated key table markers");
  return `${doc.slice(0, begin + BEGIN_MARKER.length)}\n${table}${doc.slice(end)}`;
}

function renderSection(title: string, node: Node, mergedRequired: readonly string[]): string {
  const rows = Object.entries(node.properties ?? {}).map(([key, property]) => {
    const required = node.required?.includes(key) ? "yes" : mergedRequired.includes(key) ? "yes, here or in the profile" : "no";
    const fallback = property.default === undefined ? "" : `\`${JSON.stringify(property.default)}\``;
    return `| \`${key}\` | ${typeOf(property)} | ${fallback} | ${required} | ${cell(property.description ?? "")} |`;
  });
  const description = node.description === undefined ? "" : `${node.description}\n\n`;
  return `### \`${title}\`\n\n${description}| key | type | default | required | meaning |\n|---|---|---|---|---|\n${rows.join("\n")}\n`;
}

function typeOf(node: Node): string {
  if (node.type === "integer") return node.exclusiveMinimum === 0 ? "integer > 0" : "integer";
  if (node.type === "array") {
    const items = node.items ?? {};
    const element = items.type === "object" ? "tables" : `${typeOf(items)}s`;
    return node.minItems ? `non-empty array of ${element}` : `array of ${element}`;
  }
  if (node.type === "object") {
    const values = node.additionalProperties;
    return typeof values === "object" && values.type !== undefined ? `table of ${typeOf(values)}s` : "table";
  }
  return node.type ?? "any";
}

/** Markdown table cells cannot hold a raw pipe or newline. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}
