import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { ProfileSnapshots, ProfileWriteChecks, ProfileWriteQueue } from '@app/profiles';
import { Clock, NotFoundError, RedisService, Settings } from '@app/shared';
import { buildCentrePage } from '../../domain/centre-page';
import { changesOfForm, changesOfGpc, changesOfUnsubscribe } from '../../domain/centre-changes';
import { PREFERENCE_CENTRE_USER } from '../../domain/centre-user';
import { type CentreSaveOutcome, SaveCentreChoicesCommand } from './save-centre-choices.command';

/**
 * The ordinary write path (docs/preference-centre.md, "Saving"): the changes against the
 * profile as it is now (the read model) become the body of a merge, checked as a POST by
 * id's acceptance checks it (the DTO rules, the input rules, the configuration and the
 * consent transitions against the stored profile), then queued as a `merge` write under the user
 * PreferenceCentre, and waited for up to SYNC_WRITE_TIMEOUT_MS like an archival: the
 * worker applies it in the profile's write order and records it in the history. The
 * opt-out of a Global Privacy Control signal (kind `gpc`) goes the same way, under a Redis
 * guard per profile so that two page views at once queue it once.
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
    private readonly redis: RedisService,
  ) {}

  async execute(command: SaveCentreChoicesCommand): Promise<CentreSaveOutcome> {
    if (command.submission.kind !== 'gpc') return this.save(command);
    // One page view applies the signal's opt-out: another view meanwhile (a second tab)
    // would read the profile before that write is applied and queue it again. The guard is
    // taken before the profile is read, so the view after it reads what the first applied.
    const guard = this.redis.key('pc', 'gpc', command.clientId, command.profileId);
    if (!(await this.claim(guard))) return { status: 'pending' };
    let outcome: CentreSaveOutcome;
    try {
      outcome = await this.save(command);
    } catch (error) {
      await this.release(guard);
      throw error;
    }
    // Still pending: the guard lapses on its own (the read model does not show it yet).
    if (outcome.status !== 'pending') await this.release(guard);
    return outcome;
  }

  private async save({
    clientId,
    profileId,
    submission,
    window,
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
        ? changesOfForm(page, submission.form, { gpc: submission.gpc === true })
        : submission.kind === 'unsubscribe'
          ? changesOfUnsubscribe(page, submission.scope)
          : changesOfGpc(page);
    if (changes.needsConfirmation?.length)
      return { status: 'confirm', choices: changes.needsConfirmation };
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
          window,
        },
        this.settings.syncWriteTimeoutMs,
      );
      if (result.status === 'failed')
        return { status: 'refused', problems: [result.reason ?? 'The change was refused'] };
      if (result.status === 'pending') return { status: 'pending' };
      return (await this.awaitingConfirmation(clientId, profileId, changes.asked))
        ? { status: 'awaiting-confirmation' }
        : { status: 'saved' };
    } catch (error) {
      if (error instanceof NotFoundError) return { status: 'gone' };
      throw error;
    }
  }

  /**
   * Whether a consent the write granted or an opt-in it asked for was held for confirmation
   * (double opt-in): read from the profile as the write left it (the read model), so the
   * answer says what was applied, not what the configuration predicts.
   */
  private async awaitingConfirmation(
    clientId: string,
    profileId: number,
    asked: readonly string[] | undefined,
  ): Promise<boolean> {
    if (!asked?.length) return false;
    const [snapshot, presentation] = await Promise.all([
      this.profiles.byId(clientId, profileId),
      this.configuration.presentation(clientId),
    ]);
    if (!snapshot?.data) return false;
    const page = buildCentrePage(snapshot.data, presentation, this.clock.now());
    const choices = page.programs.flatMap((program) => program.choices);
    return [...page.consents, ...choices].some(
      (held) => held.awaitingConfirmation && asked.includes(held.id),
    );
  }

  /**
   * The profile's GPC guard in Redis (SET NX, lapsing after the wait and the request's
   * deadline). Without Redis the write goes ahead: a second identical opt-out changes
   * nothing the first did not (no history entry), it only adds a write record.
   */
  private async claim(guard: string): Promise<boolean> {
    if (!this.redis.available) return true;
    const ttl = this.settings.syncWriteTimeoutMs + this.settings.requestDeadlineMs;
    try {
      return (await this.redis.client.set(guard, '1', 'PX', ttl, 'NX')) === 'OK';
    } catch {
      return true;
    }
  }

  private async release(guard: string): Promise<void> {
    await this.redis.client.del(guard).catch(() => undefined);
  }
}
