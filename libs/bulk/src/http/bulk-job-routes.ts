import { ApiIntParam, INT32_MAX, type ResourceLocation } from '@app/shared';

/*
 * What the export and import routes share: both address a job by the AccessToken its
 * Initiate answered, and point to its status the same way.
 */

/** The `{accessToken}` of a job's routes (PositiveIntParam); `job`: "export" or "import". */
export const ApiJobTokenParam = (job: 'export' | 'import'): MethodDecorator =>
  ApiIntParam('accessToken', `The ${job}'s AccessToken, from Initiate (1 to ${INT32_MAX})`);

/** What Initiate, Stage and Execute answer: the job, by its AccessToken. */
interface JobAnswer {
  AccessToken: number;
}

/** A link's parameter: the AccessToken of the answer (OpenAPI links). */
export const TOKEN_LINK = { accessToken: '$response.body#/AccessToken' };

/** Location of a job's answer (`Bulk/Export`, `Bulk/Import`): its status, Link rel="monitor" too. */
export const jobStatusLocation =
  (base: string) =>
  (result: unknown): ResourceLocation => {
    const path = `${base}/${(result as JobAnswer).AccessToken}`;
    return { location: path, links: [{ path, rel: 'monitor' }] };
  };
