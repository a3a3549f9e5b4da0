// Generates generated/kith-api.ts (the paths, operations and schemas of the Kith API as TypeScript types) from the
// gateway's OpenAPI document. openapi-typescript's CLI types a `format: binary` body as string; the upload body is
// bytes, so binary schemas become Blob here (the recipe of openapi-typescript's Node API docs).
import fs from "node:fs";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";

const DOCUMENT = new URL("../../../gateway/src/main/resources/openapi.yaml", import.meta.url);
const OUTPUT = new URL("../generated/kith-api.ts", import.meta.url);

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier("Blob"));

const ast = await openapiTS(DOCUMENT, {
  transform(schema) {
    if (schema.format === "binary") {
      return BLOB;
    }
    return undefined;
  },
});
fs.mkdirSync(new URL(".", OUTPUT), { recursive: true });
fs.writeFileSync(OUTPUT, astToString(ast));
console.log(`generated ${OUTPUT.pathname}`);
