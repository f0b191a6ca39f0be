// Parses an AsyncAPI document (a file path, or stdin) with the official AsyncAPI parser and prints its
// diagnostics as JSON lines; exits 1 when any is an error. Used by tests/deploy/test_api_documents.py.
import { readFileSync } from "node:fs";
import { Parser } from "@asyncapi/parser";

const source = readFileSync(process.argv[2] ?? 0, "utf8");
const { document, diagnostics } = await new Parser().parse(source);
const errors = diagnostics.filter((d) => d.severity === 0);
for (const d of diagnostics) {
  console.log(JSON.stringify({ severity: d.severity, code: d.code, message: d.message, path: d.path }));
}
process.exit(document && errors.length === 0 ? 0 : 1);
