import { z } from 'zod';
import { passwordFormats } from './protocol/password.js';
import { requestDateFormats } from './protocol/request-date.js';

/**
 * The config file, `$XDG_CONFIG_HOME/agentpay/config.json`: the profiles and their settings.
 * This schema is the definition; config.ts takes a plainly well-formed file without loading
 * zod (acceptConfigFile), and asks this schema about anything else.
 */
/** A gateway code list: "11,12" or [11, "12"]. */
const codeList = z.union([z.string(), z.array(z.union([z.string(), z.number()]))]).optional();

const profileSchema = z.strictObject({
  baseUrl: z.string().optional(),
  agentId: z.string().optional(),
  password: z.string().optional(),
  passwordFile: z.string().optional(),
  passwordFormat: z.enum(passwordFormats).optional(),
  timeout: z.union([z.number(), z.string()]).optional(),
  pendingCodes: codeList,
  dateFormat: z.enum(requestDateFormats).optional(),
  journal: z.string().optional(),
  notFoundCodes: codeList,
  failedCodes: codeList,
  caFile: z.string().optional(),
  proxy: z.string().optional(),
});
export type Profile = z.infer<typeof profileSchema>;

export const configFileSchema = z.strictObject({
  profiles: z.record(z.string(), profileSchema).default({}),
});
export type ConfigFile = z.infer<typeof configFileSchema>;
