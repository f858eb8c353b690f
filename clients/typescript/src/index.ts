export {
  bearerAuth,
  customAuth3,
  issuedTimestamp,
  signCustomAuth3,
  TOKEN_PATH,
  TokenRequestError,
  type AuthMiddleware,
  type BearerAuth,
  type BearerAuthOptions,
  type CustomAuth3,
  type CustomAuth3Options,
  type CustomAuthScheme,
  type FetchLike,
  type SignInput,
  type TokenResponse,
} from './auth';
export { createPcpClient, type PcpClient, type PcpClientOptions, type Schemas } from './client';
export {
  waitForWrite,
  WriteFailedError,
  WriteTimeoutError,
  type WaitForWriteOptions,
} from './wait';
export type { components, operations, paths } from './schema';
