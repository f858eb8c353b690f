import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { ProfileSnapshots } from '@app/profiles';
import { InvalidInputError, NotFoundError } from '@app/shared';
import { scopeParameter, type UnsubscribeScope } from '../../domain/link-token';
import type { CentreLinkDto } from '../../dto/centre-link.dto';
import { PreferenceCentreSettings } from '../../preference-centre-settings';
import { CentreLinks } from '../../services/centre-links.service';
import { centrePath } from '../../domain/centre-paths';
import { CreateCentreLinkCommand } from './create-centre-link.command';

/**
 * Signs the page link and the one-click unsubscribe link of an existing profile (a 404 for
 * a profile the client does not have). The client's key is created with its first link.
 */
@CommandHandler(CreateCentreLinkCommand)
export class CreateCentreLinkHandler implements ICommandHandler<CreateCentreLinkCommand> {
  constructor(
    private readonly links: CentreLinks,
    private readonly profiles: ProfileSnapshots,
    private readonly configuration: ConfigurationReader,
    private readonly settings: PreferenceCentreSettings,
  ) {}

  async execute({
    clientId,
    profileId,
    body,
    requestOrigin,
    prefix,
  }: CreateCentreLinkCommand): Promise<CentreLinkDto> {
    const days = body.ExpiresInDays ?? this.settings.linkDays;
    if (days > this.settings.maxLinkDays)
      throw new InvalidInputError(
        `ExpiresInDays (value ${days}) must be at most ${this.settings.maxLinkDays} (PREFERENCE_CENTRE_MAX_LINK_DAYS)`,
      );
    const scope = await this.scopeOf(clientId, body.ProgramId, body.ChannelId);
    const snapshot = await this.profiles.byId(clientId, profileId);
    if (!snapshot) throw new NotFoundError(`Profile ${profileId} was not found`);

    const origin = this.settings.baseUrl ?? requestOrigin;
    const page = await this.links.sign(clientId, profileId, { kind: 'page' }, days);
    const unsubscribe = await this.links.sign(
      clientId,
      profileId,
      { kind: 'unsubscribe', scope },
      days,
    );
    const Url = `${origin}${centrePath(prefix, clientId)}?${page.query}`;
    const UnsubscribeUrl = `${origin}${centrePath(prefix, clientId, 'unsubscribe')}?${unsubscribe.query}`;
    return {
      Url,
      UnsubscribeUrl,
      ListUnsubscribe: `<${UnsubscribeUrl}>`,
      ListUnsubscribePost: 'List-Unsubscribe=One-Click',
      ExpiresAt: page.expiresAt.toISOString(),
      UnsubscribeScope: scopeParameter(scope),
    };
  }

  private async scopeOf(
    clientId: string,
    programId: string | undefined,
    channelId: string | undefined,
  ): Promise<UnsubscribeScope> {
    if (programId === undefined) {
      if (channelId !== undefined)
        throw new InvalidInputError(
          `ChannelId (value ${JSON.stringify(channelId)}) needs a ProgramId`,
        );
      return { kind: 'all' };
    }
    const id = /^\s*\d{1,10}\s*$/.test(programId) ? Number(programId) : NaN;
    const vocabulary = await this.configuration.vocabulary(clientId);
    if (!Number.isInteger(id) || !vocabulary.program(id))
      throw new InvalidInputError(
        `ProgramId (value ${JSON.stringify(programId)}) is not a program of this client`,
      );
    if (channelId === undefined) return { kind: 'program', programId: id };
    const channel = vocabulary.channel(channelId);
    if (!channel)
      throw new InvalidInputError(
        `ChannelId (value ${JSON.stringify(channelId)}) must be Email, Phone, Text/SMS, Mail or Solicit`,
      );
    return { kind: 'program', programId: id, channel };
  }
}
