export type { ConfirmationSettings, ConfirmationTemplate } from './domain/confirmation-template';
export {
  DEFAULT_CONFIRMATION_TEMPLATE,
  DEFAULT_CONFIRMATION_TTL_HOURS,
  templateFor,
} from './domain/confirmation-template';
