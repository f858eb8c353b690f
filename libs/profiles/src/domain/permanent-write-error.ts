/** A write that can never apply (the same input would fail again): recorded, not retried. */
export class PermanentWriteError extends Error {}
