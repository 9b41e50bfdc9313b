import { parseTree, stripComments } from "jsonc-parser/lib/esm/main.js";
console.log(typeof stripComments, typeof parseTree, stripComments("{/*x*/}"));
