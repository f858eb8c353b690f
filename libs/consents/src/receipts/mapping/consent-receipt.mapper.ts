import { type ChainReport, historyEntryId, type ProfileHistory } from '@app/profiles';
import type { ConsentReceipt } from '../domain/receipt';
import type {
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
  const { snapshot } = entry;
  return {
    EntryId: historyEntryId(entry),
    Category: entry.category,
    ...(entry.list ? { List: entry.list } : {}),
    ...(typeof snapshot.ConsentType === 'string' ? { ConsentType: snapshot.ConsentType } : {}),
    ...(snapshot.ProgramId !== undefined ? { ProgramId: String(snapshot.ProgramId) } : {}),
    ModifiedAt: entry.modifiedAt,
    Hash: entry.hash!,
  };
}

/** A chain's verification. */
export function toChainReportDto(
  profileId: number,
  savedHead: string | null,
  report: ChainReport,
): ConsentChainReportDto {
  return {
    ProfileId: profileId,
    Ok: report.ok,
    Chained: report.chained,
    Unchained: report.unchained,
    Head: report.head,
    SavedHead: savedHead,
    Problems: report.problems.map((problem) => ({
      EntryId: problem.entryId,
      Reason: problem.reason,
      Detail: problem.detail,
    })),
  };
}
