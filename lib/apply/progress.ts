/**
 * What apply tells a progress view as it goes: the view itself is in
 * lib/render/apply_progress.ts.
 *
 * @module
 */

/** What apply tells the view about one node. */
export interface ProgressEvent {
  address: string;
  action: string;
  /** `managed`, `data` or `ephemeral`: a data source forgotten is not shown. */
  mode?: string;
  phase: "start" | "done" | "failed" | "cancelled";
  /** How long the node took, with `done`, `failed` and `cancelled`. */
  ms?: number;
  /** The object's id: before (start) or after (done), redacted when sensitive. */
  id?: string;
  /** With `failed`: the first error's summary. */
  summary?: string;
}
