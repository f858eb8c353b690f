import type { BodyExamples } from '@app/shared';
import type { AddDncEntriesDto, CreateDncListDto } from './do-not-contact.dto';

/*
 * Request-body examples of the do-not-contact lists (the OpenAPI document's `examples`;
 * test/openapi-examples.e2e-spec.ts sends each).
 */
export const CREATE_DNC_LIST_EXAMPLES: BodyExamples<CreateDncListDto> = {
  emailList: {
    summary: 'A list of email addresses',
    value: {
      Name: 'Complaints',
      ListType: 'Email',
      Description: 'Addresses whose owners asked never to be emailed',
    },
  },
  phoneList: {
    summary: 'A list of phone numbers',
    value: { Name: 'National do-not-call register', ListType: 'Phone' },
  },
};

export const ADD_DNC_ENTRIES_EXAMPLES: BodyExamples<AddDncEntriesDto> = {
  emails: {
    summary: 'Two addresses on an Email list, with the reason recorded on the affected profiles',
    value: {
      Entries: [
        { Value: 'no.mail@example.com', Reason_Code: 'Complaint' },
        { Value: 'ann.lee@example.com', Reason_Code: 'Asked by phone' },
      ],
    },
  },
};
