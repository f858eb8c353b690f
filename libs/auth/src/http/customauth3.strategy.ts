import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-custom';
import type { Caller } from '../domain/tenant';
import { CustomAuthService } from '../services/custom-auth.service';
import type { CallerRequest } from './caller-request';

export const CUSTOMAUTH3_STRATEGY = 'customauth3';

/**
 * The signed `CUSTOMAUTH3-*` header, checked against the `{clientId}` path segment.
 * Tried after the Bearer strategy, it also answers "invalid scheme" for any header
 * that is neither.
 */
@Injectable()
export class CustomAuth3Strategy extends PassportStrategy(Strategy, CUSTOMAUTH3_STRATEGY) {
  constructor(private readonly customAuth: CustomAuthService) {
    super();
  }

  async validate(request: CallerRequest): Promise<Caller> {
    return this.customAuth.authenticate(request.headers.authorization, request.params?.clientId);
  }
}
