import { DynamicModule, Global, Module } from '@nestjs/common';
import type { ProfileRuleModule } from './domain/profile-rules.port';
import { ProfileRules } from './domain/profile-rules';

/**
 * The rule modules of the profile write pipeline, composed by each app (api and worker
 * alike, so acceptance and the worker check the same rules). Profiles declares the port
 * (ProfileRuleModule); Consents and Preferences implement it and never import each other.
 */
@Global()
@Module({})
export class ProfileRulesModule {
  static register(modules: ProfileRuleModule[]): DynamicModule {
    return {
      module: ProfileRulesModule,
      providers: [{ provide: ProfileRules, useValue: new ProfileRules(modules) }],
      exports: [ProfileRules],
    };
  }
}
