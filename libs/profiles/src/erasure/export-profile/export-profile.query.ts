import { Query } from '@nestjs/cqrs';

/** A profile's data-subject export, streamed (docs/data-subject.md). */
export interface ProfileExportStream {
  /** The download's file name. */
  fileName: string;
  /** The JSON text of a ProfileExportDto, in pieces, read from the engine as it is sent. */
  chunks: AsyncIterable<string>;
}

/**
 * Everything held on one profile. Answers 404 (NotFoundError) before anything is streamed
 * when the client has no such profile (never created, deleted or erased, another client's).
 */
export class ExportProfileQuery extends Query<ProfileExportStream> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
  ) {
    super();
  }
}
