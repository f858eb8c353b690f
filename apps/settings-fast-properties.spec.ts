import { setFlagsFromString } from 'node:v8';
import { AuthSettings } from '@app/auth';
import { BulkSettings } from '@app/bulk';
import { ConfirmationMailSettings } from '@app/consents/confirmations/confirmation-settings';
import { ConsentSettings } from '@app/consents/consent-settings';
import { EventsSettings } from '@app/events';
import { PreferenceCentreSettings } from '@app/preference-centre';
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the class itself: the lib exports only its declaration
import { ProfileSettings } from '@app/profiles/profile-settings';
import { ReportsSettings } from '@app/reports/reports-settings';
import { EnvReader, Settings } from '@app/shared';

// V8's own test of an object's representation, enabled for this file's process (a Jest worker).
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (
  object: object,
) => boolean;

/**
 * The settings objects are read on every request (the Redis key prefix, deadlines, limits). An
 * object given many properties after its construction (Object.assign of a declaration's
 * fields) can turn into a dictionary, whose every read is a hash look-up: each stays a fast
 * object.
 */
describe('settings classes', () => {
  const env = {
    MONGODB_URI: 'mongodb://127.0.0.1/x',
    REDIS_URL: 'redis://127.0.0.1',
    JWT_SECRET: 's',
  };
  const reader = new EnvReader(env);

  it('the check itself tells a dictionary from a fast object', () => {
    const dictionary: Record<string, number> = {};
    for (let i = 0; i < 200; i++) dictionary[`key${i}`] = i;
    delete dictionary.key0;
    expect(hasFastProperties(dictionary)).toBe(false);
    expect(hasFastProperties({ a: 1 })).toBe(true);
  });

  it.each([
    ['Settings', () => new Settings(env)],
    ['AuthSettings', () => new AuthSettings(reader)],
    ['ProfileSettings', () => new ProfileSettings(reader)],
    ['BulkSettings', () => new BulkSettings(reader)],
    ['EventsSettings', () => new EventsSettings(reader)],
    ['ConsentSettings', () => new ConsentSettings(reader)],
    ['ConfirmationMailSettings', () => new ConfirmationMailSettings(reader)],
    ['PreferenceCentreSettings', () => new PreferenceCentreSettings(reader)],
    ['ReportsSettings', () => new ReportsSettings(reader)],
  ])('%s has fast properties', (_name, make) => {
    expect(hasFastProperties(make())).toBe(true);
  });
});
