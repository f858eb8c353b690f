import type { BodyExamples } from '@app/shared';
import type { ReportRebuildRequestDto } from './report.dto';

/*
 * Request-body examples of POST /Profiles/v4/Reports/Rebuilds (the OpenAPI document's
 * `examples`; test/openapi-examples.e2e-spec.ts sends each, naming its own client).
 */
export const REPORT_REBUILD_EXAMPLES: BodyExamples<ReportRebuildRequestDto> = {
  rebuild: {
    summary: "Rebuild the counts of the client demo (the README's first client)",
    value: { ClientId: 'demo', Restart: false },
  },
};
