/**
 * The floor of a command that needs no CUE: Deno starts, prints a line, exits.
 *
 * @module
 */

console.log("hello");
