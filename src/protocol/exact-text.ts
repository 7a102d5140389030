import { z } from 'zod';
import { LosslessNumber } from './lossless.js';

/** A JSON string or number, as the exact text it was written with (see exactTextOf). */
export const exactText = z.union([
  z.string(),
  z.instanceof(LosslessNumber).transform((n) => n.value),
]);
