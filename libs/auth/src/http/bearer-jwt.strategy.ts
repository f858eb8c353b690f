import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-custom';
import { bearerTokenOf } from '../domain/access-token';
import type { Caller } from '../domain/tenant';
import { BearerAuthService } from '../services/bearer-auth.service';
import type { CallerRequest } from './caller-request';

export const BEARER_STRATEGY = 'bearer-jwt';

/**
 * `Authorization: Bearer <token>`. Any other scheme is not ours: fail (false), so
 * passport tries the next strategy. A Bearer header that does not verify throws the
 * 401 ApiError, which ends the chain.
 */
@Injectable()
export class BearerJwtStrategy extends PassportStrategy(Strategy, BEARER_STRATEGY) {
  constructor(private readonly bearer: BearerAuthService) {
    super();
  }

  async validate(request: CallerRequest): Promise<Caller | false> {
    const token = bearerTokenOf(request.headers.authorization);
    if (token === null) return false;
    return this.bearer.authenticate(token);
  }
}
