import { CHANNELS, canonicalChannel } from '@app/config';
import { preferenceChannelKey, preferenceKey } from './preference-key';

describe('preferenceKey', () => {
  it('reads decimal ids as numbers and channel aliases as their channel', () => {
    expect(preferenceKey({ ProgramId: ' 07', ChannelId: 'sms', FilterId: '012' })).toBe(
      preferenceKey({ ProgramId: '7', ChannelId: 'Text/SMS', FilterId: '12' }),
    );
    expect(preferenceKey({ ProgramId: '7', ChannelId: 'Text', FilterId: '12' })).toBe(
      '7|text/sms|12',
    );
    expect(preferenceKey({ ProgramId: '7', ChannelId: 'Email', FilterId: '12' })).not.toBe(
      preferenceKey({ ProgramId: '7', ChannelId: 'Mail', FilterId: '12' }),
    );
    expect(preferenceKey({ ProgramId: 'News ', ChannelId: 'EMAIL', FilterId: 'f1' })).toBe(
      'news|email|f1',
    );
  });

  it('folds channels exactly as canonicalChannel of the configuration does', () => {
    for (const value of [...CHANNELS, 'text', 'SMS', ' sms ', 'Fax', 'e-mail']) {
      const canonical = canonicalChannel(value);
      if (canonical)
        expect({ value, key: preferenceChannelKey(value) }).toEqual({
          value,
          key: canonical.toLowerCase(),
        });
      else expect(CHANNELS.map((c) => c.toLowerCase())).not.toContain(preferenceChannelKey(value));
    }
  });
});
