import { describeContractRun } from './contract-run';

describeContractRun('customauth3', 'finds no failure with CUSTOMAUTH3 signatures');
