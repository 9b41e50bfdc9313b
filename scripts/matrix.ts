/**
 * Writes docs/reference/feature-matrix.md from the feature matrix's
 * declarations (tests/matrix/cells.ts). `deno task matrix`.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { formattedMatrix, PAGE } from "../tests/matrix/table.ts";

const path = fileURLToPath(new URL(`../${PAGE}`, import.meta.url));
await Deno.writeTextFile(path, await formattedMatrix());
console.log(`wrote ${PAGE}`);
