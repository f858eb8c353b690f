import { describeContractRun } from './contract-run';

describeContractRun('bearer', 'finds no failure with a bearer token');
