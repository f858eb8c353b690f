import { Query } from '@nestjs/cqrs';
import type { ConfirmationPage } from '../../views/confirmation-page.view';

/** GET /Confirm/{token}: the page with one button (confirms nothing). */
export class GetConfirmationQuestionQuery extends Query<ConfirmationPage> {
  constructor(
    readonly token: string,
    /** Where the page's form posts (the request's own path). */
    readonly action: string,
  ) {
    super();
  }
}
