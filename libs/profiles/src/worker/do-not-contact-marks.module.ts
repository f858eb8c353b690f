import { Module } from '@nestjs/common';
import { ProgramsPersistenceModule } from '@app/config';
import { DoNotContactPersistenceModule } from '@app/consents';
import { ProfilesPersistenceModule } from '../profiles-persistence.module';
import { DoNotContactMarks } from '../services/do-not-contact-marks.service';

/** Do-not-contact marks for the worker: the list entries and the account's DNC filters. */
@Module({
  imports: [ProfilesPersistenceModule, DoNotContactPersistenceModule, ProgramsPersistenceModule],
  providers: [DoNotContactMarks],
  exports: [DoNotContactMarks],
})
export class DoNotContactMarksModule {}
