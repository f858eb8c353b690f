import {
  type ChainReport,
  historyEntryId,
  isConsentEntry,
  isPreferenceEntry,
  type ProfileHistory,
} from '@app/profiles';
import type { ConsentReceipt } from '../domain/receipt';
import type { AbsorbedChainReport } from '../domain/absorbed-chain-report';
import type {
  AbsorbedChainReportDto,
  ConsentChainReportDto,
  ConsentReceiptDto,
  ConsentReceiptEntryDto,
} from '../dto/consent-receipt.dto';

/** A receipt as answered: every field of the signed form (nothing renamed: it is verified). */
export function toConsentReceiptDto(receipt: ConsentReceipt): ConsentReceiptDto {
  return {
    Receipt: { ...receipt.Receipt },
    Signature: receipt.Signature,
    Entry: receipt.Entry as unknown as Record<string, unknown>,
    Proof: receipt.Proof as unknown as Record<string, unknown>[],
    PublicKey: { ...receipt.PublicKey },
  };
}

/** A chained entry in the receipt list. */
export function toReceiptEntryDto(entry: ProfileHistory): ConsentReceiptEntryDto {
  const consentType = isConsentEntry(entry) ? entry.snapshot.ConsentType : undefined;
  const programId = isPreferenceEntry(entry) ? entry.snapshot.ProgramId : undefined;
  return {
    EntryId: historyEntryId(entry),
    Category: entry.category,
    ...(entry.list ? { List: entry.list } : {}),
    ...(typeof consentType === 'string' ? { ConsentType: consentType } : {}),
    ...(programId !== undefined ? { ProgramId: String(programId) } : {}),
    ModifiedAt: entry.modifiedAt,
    Hash: entry.hash!,
  };
}

/** A chain's problems as answered. */
function toProblemDtos(report: ChainReport) {
  return report.problems.map((problem) => ({
    EntryId: problem.entryId,
    Reason: problem.reason,
    Detail: problem.detail,
  }));
}

/** A chain's verification, with those of the profiles it absorbed. */
export function toChainReportDto(
  profileId: number,
  savedHead: string | null,
  report: ChainReport,
  absorbed: AbsorbedChainReport[] = [],
): ConsentChainReportDto {
  return {
    ProfileId: profileId,
    Ok: report.ok && absorbed.every((each) => each.report.ok),
    Chained: report.chained,
    Unchained: report.unchained,
    Head: report.head,
    SavedHead: savedHead,
    Problems: toProblemDtos(report),
    Absorbed: absorbed.map((each): AbsorbedChainReportDto => ({
      ProfileId: each.profileId,
      AbsorbedBy: each.absorbedBy,
      Ok: each.report.ok,
      Chained: each.report.chained,
      Unchained: each.report.unchained,
      Head: each.report.head,
      AbsorbedHead: each.absorbedHead,
      Problems: toProblemDtos(each.report),
    })),
  };
}
