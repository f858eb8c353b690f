/**
 * Thrown when a worker job no longer holds the run lease of its import or export
 * (runLeaseName, exportRunLeaseName): it stops, another goes on.
 */
export class RunLeaseLostError extends Error {}
