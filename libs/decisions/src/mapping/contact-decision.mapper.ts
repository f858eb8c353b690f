import { canSeeConsentType, type ProfileView } from '@app/profiles';
import type { DecisionReason } from '../domain/contact-decision';
import type { ContactQuestion } from '../domain/contact-question';
import type { ContactDecisionDto, DecisionReasonDto } from '../dto/contact-decision.dto';

/** One question's answer, before it is shown. */
export interface DecisionAnswer {
  question: ContactQuestion;
  profileIds: number[];
  allowed: boolean;
  reasons: DecisionReason[];
}

/**
 * A decision → the wire. Lists every field it returns. A consent of a type the caller's
 * user group may not see keeps its code and effect (the answer must not change with the
 * caller) but shows nothing else: no type name, status, version, dates or history entry.
 */
export function toContactDecisionDto(
  answer: DecisionAnswer,
  view: ProfileView,
): ContactDecisionDto {
  const { question } = answer;
  return {
    Allowed: answer.allowed,
    ProfileIds: answer.profileIds,
    ChannelId: question.channel,
    ProgramId: String(question.programId),
    ...(question.filterId !== undefined ? { FilterId: String(question.filterId) } : {}),
    ...(question.consentType !== undefined ? { ConsentType: question.consentType } : {}),
    ...(question.value?.list === 'Emails' ? { EmailAddress: question.value.text } : {}),
    ...(question.value?.list === 'PhoneNumbers' ? { PhoneNumber: question.value.text } : {}),
    Reasons: answer.reasons.map((reason) => toReasonDto(reason, view)),
  };
}

function toReasonDto(reason: DecisionReason, view: ProfileView): DecisionReasonDto {
  const hidden =
    reason.consent !== undefined && !canSeeConsentType(view, reason.consent.ConsentType);
  const dto: DecisionReasonDto = {
    Code: reason.code,
    Effect: reason.effect,
    Message: hidden ? hiddenMessage(reason) : reason.message,
    HistoryEntryId: hidden ? null : reason.historyEntryId,
  };
  if (reason.profileId !== undefined) dto.ProfileId = reason.profileId;
  if (reason.level) dto.Level = reason.level;
  if (reason.contact) {
    dto.ContactList = reason.contact.list;
    dto.Contact = {
      EmailAddress: reason.contact.fields.EmailAddress,
      PhoneNumber: reason.contact.fields.PhoneNumber,
      AddressType: reason.contact.fields.AddressType,
      Address1: reason.contact.fields.Address1,
      PostalCode: reason.contact.fields.PostalCode,
    };
  }
  if (reason.preference) {
    const p = reason.preference;
    dto.Preference = {
      ProgramId: p.ProgramId,
      ChannelId: p.ChannelId,
      FilterId: p.FilterId,
      MatchType: p.MatchType,
      PreferenceType: p.PreferenceType,
      PreferenceStatus: p.PreferenceStatus,
      ExpirationDate: p.ExpirationDate,
      IsActive: p.IsActive,
      ...(p.GlobalPrivacyControl ? { GlobalPrivacyControl: p.GlobalPrivacyControl } : {}),
    };
  }
  if (reason.consent) {
    const c = reason.consent;
    dto.Consent = hidden
      ? { Hidden: true }
      : {
          ConsentType: c.ConsentType,
          RequiredBy: c.RequiredBy,
          ConsentStatus: c.ConsentStatus,
          ConsentVersion: c.ConsentVersion,
          ConsentDate: c.ConsentDate,
          ExpirationDate: c.ExpirationDate,
          Expired: c.Expired,
          UpdatedVersionPending: c.UpdatedVersionPending,
        };
  }
  if (reason.listings) {
    dto.DoNotContactLists = reason.listings.map((listing) => ({
      ListId: listing.ListId,
      ListName: listing.ListName,
      ReasonCode: listing.ReasonCode,
      ListedAt: listing.ListedAt,
      Propagated: listing.Propagated,
    }));
  }
  if (reason.marked !== undefined) dto.MarkedOnProfile = reason.marked;
  if (reason.pending) {
    dto.PendingWrite = {
      AppliedSeq: reason.pending.appliedSeq,
      AcceptedSeq: reason.pending.acceptedSeq,
    };
  }
  return dto;
}

function hiddenMessage(reason: DecisionReason): string {
  return reason.effect === 'Allow'
    ? "A required consent outside your user group's consent types is granted"
    : `A required consent outside your user group's consent types stops the contact (${reason.code})`;
}
