import type { ReportStatus } from '../dto/report.dto';
import type { CountsMeta } from './report-count-store.service';

/** What a report's state says to its reader (ReportCountsDto.Status). */
export function reportStatus(meta: CountsMeta): ReportStatus {
  if (meta.builtAt !== undefined)
    return meta.rebuildCursor !== undefined ? 'Rebuilding' : 'Current';
  return meta.rebuildCursor !== undefined ? 'Building' : 'NotBuilt';
}
