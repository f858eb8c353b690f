import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ConfirmationMessages } from '../../services/confirmation-messages.service';
import { ConfirmationLinks } from '../../services/confirmation-links.service';
import {
  type ConfirmationPage,
  renderConfirmationQuestion,
  renderConfirmationRefused,
} from '../../views/confirmation-page.view';
import { GetConfirmationQuestionQuery } from './get-confirmation-question.query';

/** Reads only: a mail scanner that prefetches the link records nothing. */
@QueryHandler(GetConfirmationQuestionQuery)
export class GetConfirmationQuestionHandler implements IQueryHandler<GetConfirmationQuestionQuery> {
  constructor(
    private readonly links: ConfirmationLinks,
    private readonly messages: ConfirmationMessages,
  ) {}

  async execute({ token, action }: GetConfirmationQuestionQuery): Promise<ConfirmationPage> {
    const opened = await this.links.open(token);
    if ('refused' in opened) return renderConfirmationRefused(opened.refused);
    const { confirmation } = opened;
    const texts = await this.messages.texts(confirmation);
    return renderConfirmationQuestion({
      consentName: texts.consentName,
      consentLanguage: texts.consentLanguage,
      emailAddress: confirmation.EmailAddress,
      action,
      subject: confirmation.Preference ? 'subscription' : 'consent',
    });
  }
}
