/** Thrown when this worker no longer holds the profile's lease: another holder carries on. */
export class LeaseLostError extends Error {}

/** The profile lease one job holds while it applies writes. */
export interface LeaseHold {
  name: string;
  token: string;
  /** Profile saves this job made (a save after its lease lapsed may have landed late). */
  saves: number;
  /**
   * A save of this job whose extensions' `afterSave` failed (the reports' counts): the job
   * queues one more job of the profile, whose heal path calls it again
   * (ApplyProfileWritesHandler).
   */
  afterSaveLeft?: boolean;
}
