import { z } from 'zod';

const schema = z.object({
  DATABASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
  RUNPAD_DATA_DIR: z.preprocess((v) => (v === '' ? undefined : v), z.string().default('.data')),
});

/** Storage settings from the environment (validated; see .env.example). */
export function dbEnv() {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) throw new Error(`Invalid DATABASE_URL or RUNPAD_DATA_DIR: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
