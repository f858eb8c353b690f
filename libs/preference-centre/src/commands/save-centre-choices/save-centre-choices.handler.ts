import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { ProfileSnapshots, ProfileWriteChecks, ProfileWriteQueue } from '@app/profiles';
import { Clock, NotFoundError, Settings } from '@app/shared';
import { buildCentrePage } from '../../domain/centre-page';
import { changesOfForm, changesOfUnsubscribe } from '../../domain/centre-changes';
import { PREFERENCE_CENTRE_USER } from '../../domain/centre-user';
import { type CentreSaveOutcome, SaveCentreChoicesCommand } from './save-centre-choices.command';

/**
 * The ordinary write path (docs/preference-centre.md, "Saving"): the changes against the
 * profile as it is now (the read model) become the body of a merge, checked as a POST by
 * id's acceptance checks it (the DTO rules, the input rules, the configuration and the
 * consent transitions against the stored profile), then queued as a `merge` write under the user
 * PreferenceCentre, and waited for up to SYNC_WRITE_TIMEOUT_MS like an archival: the
 * worker applies it in the profile's write order and records it in the history.
 */
@CommandHandler(SaveCentreChoicesCommand)
export class SaveCentreChoicesHandler implements ICommandHandler<SaveCentreChoicesCommand> {
  constructor(
    private readonly profiles: ProfileSnapshots,
    private readonly configuration: ConfigurationReader,
    private readonly clock: Clock,
    private readonly checks: ProfileWriteChecks,
    private readonly writes: ProfileWriteQueue,
    private readonly settings: Settings,
  ) {}

  async execute({
    clientId,
    profileId,
    submission,
  }: SaveCentreChoicesCommand): Promise<CentreSaveOutcome> {
    const [snapshot, presentation] = await Promise.all([
      this.profiles.byId(clientId, profileId),
      this.configuration.presentation(clientId),
    ]);
    const data = snapshot?.data;
    if (!data || data.IsActive === false) return { status: 'gone' };
    const page = buildCentrePage(data, presentation, this.clock.now());
    const changes =
      submission.kind === 'form'
        ? changesOfForm(page, submission.form)
        : changesOfUnsubscribe(page, submission.scope);
    if (!changes.body) return { status: 'unchanged' };

    const check = (await this.checks.checkerFor(clientId, 'merge', undefined, data))(changes.body);
    const problems = [...check.invalid, ...check.forbidden];
    if (problems.length) return { status: 'refused', problems };
    try {
      const result = await this.writes.submitAndWait(
        {
          clientId,
          profileId,
          kind: 'merge',
          body: changes.body,
          userId: PREFERENCE_CENTRE_USER,
        },
        this.settings.syncWriteTimeoutMs,
      );
      if (result.status === 'failed')
        return { status: 'refused', problems: [result.reason ?? 'The change was refused'] };
      return { status: result.status === 'applied' ? 'saved' : 'pending' };
    } catch (error) {
      if (error instanceof NotFoundError) return { status: 'gone' };
      throw error;
    }
  }
}
