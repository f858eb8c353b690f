import { DEFAULT_CONFIRMATION_TEMPLATE, templateFor } from '@app/config';
import { fillConfirmationTemplate } from './confirmation-message';

const facts = {
  ConsentName: 'News <weekly>',
  ProgramName: 'Letters & notes',
  ConsentLanguage: 'I agree & more',
  EmailAddress: 'pat@example.com',
  Link: 'https://x.example/Confirm/t',
  ExpiresAt: '2026-12-05T10:00:00.000Z',
};

describe('confirmation messages', () => {
  it('fill every placeholder, escaping values in the HTML only', () => {
    const message = fillConfirmationTemplate(DEFAULT_CONFIRMATION_TEMPLATE, facts);
    expect(message.subject).toBe('Please confirm: News <weekly>');
    expect(message.text).toContain('I agree & more');
    expect(message.text).toContain(facts.Link);
    expect(message.html).toContain('I agree &amp; more');
    expect(message.html).toContain(`href="${facts.Link}"`);
    expect(message.html).not.toContain('{{');
  });

  it('fill {{ProgramName}} (a program opt-in’s name), escaped in the HTML', () => {
    const message = fillConfirmationTemplate(
      {
        Locale: 'en',
        Subject: 'Join {{ProgramName}}',
        Text: '{{Link}}',
        Html: '<b>{{ProgramName}}</b>',
      },
      facts,
    );
    expect(message.subject).toBe('Join Letters & notes');
    expect(message.html).toBe('<b>Letters &amp; notes</b>');
  });

  it('take the locale’s template, else its language’s, else the client’s en, else the default', () => {
    const template = (Locale: string) => ({
      Locale,
      Subject: Locale,
      Text: '{{Link}}',
      Html: '{{Link}}',
    });
    const settings = {
      TimeToLiveHours: 72,
      From: null,
      Templates: [template('fr'), template('de-DE')],
    };
    expect(templateFor(settings, 'de-de').Subject).toBe('de-DE');
    expect(templateFor(settings, 'fr-CA').Subject).toBe('fr');
    expect(templateFor(settings, 'nl')).toBe(DEFAULT_CONFIRMATION_TEMPLATE);
    expect(
      templateFor({ ...settings, Templates: [...settings.Templates, template('en')] }, 'nl')
        .Subject,
    ).toBe('en');
  });
});
