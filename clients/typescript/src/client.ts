import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { AuthMiddleware } from './auth';
import type { components, paths } from './schema';

/** The typed client: every path, method, parameter, body and answer of openapi.json. */
export type PcpClient = Client<paths>;

/** The schemas of openapi.json by name, e.g. `Schemas['ProfileDto']`. */
export type Schemas = components['schemas'];

export interface PcpClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The service's origin, e.g. `http://127.0.0.1:3000` (paths start with `/Profiles/v4`). */
  baseUrl: string;
  /** `bearerAuth(...)` or `customAuth3(...)`; none for the routes that need no credentials. */
  auth?: AuthMiddleware;
}

/**
 * An openapi-fetch client typed by the generated `paths`, authorized by `auth`:
 * `client.GET('/Profiles/v4/{clientId}/Profile/{profileId}', { params: { path: {...} } })`
 * answers `{ data, error, response }`, `data` typed by the 2xx schema, `error` by the others.
 */
export function createPcpClient(options: PcpClientOptions): PcpClient {
  const { auth, baseUrl, ...rest } = options;
  const client = createClient<paths>({ ...rest, baseUrl: baseUrl.replace(/\/+$/, '') });
  if (auth) client.use(auth);
  return client;
}
