import { stripComments, parseTree } from "jsonc-parser/lib/esm/main.js";
console.log(typeof stripComments, typeof parseTree, stripComments("{/*x*/}"));
