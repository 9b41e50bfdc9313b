/**
 * cue-wasm, loaded on first use. Loading costs ~0.7 s and ~200 MB, so only
 * commands that evaluate CUE call `evaluate`.
 *
 * @module
 */

interface CueApi {
  toJSON(src: string): string;
}

let api: Promise<CueApi> | undefined;

async function load(): Promise<CueApi> {
  const CUE = await import("cue-wasm");
  return (await CUE.init()) as CueApi;
}

/** The outcome of one evaluation: the JSON text, or CUE's error message. */
export type EvalResult = { ok: true; json: string } | { ok: false; message: string };

/** Evaluates one CUE source and exports it as JSON. */
export async function evaluate(src: string): Promise<EvalResult> {
  api ??= load();
  const cue = await api;
  try {
    return { ok: true, json: cue.toJSON(src) };
  } catch (e) {
    return { ok: false, message: typeof e === "string" ? e : String((e as Error)?.message ?? e) };
  }
}
