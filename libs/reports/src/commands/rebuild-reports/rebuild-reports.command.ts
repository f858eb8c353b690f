/** Rebuild (a slice of the rebuild of) a client's current counts from its stored profiles. */
export class RebuildReportsCommand {
  constructor(
    readonly clientId: string,
    /** Start over even when a rebuild is under way (else it is resumed from its cursor). */
    readonly restart = false,
  ) {}
}
