// expect TS2367 on the marked line: 'invalid_indx' is not one of UnpoolError's codes.
import { UnpoolError } from '../../../../dist/index.js';
export function isBadIndex(e: UnpoolError): boolean {
  return e.code === 'invalid_indx';  // error
}
