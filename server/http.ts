// Small helpers shared by the route modules: validation with the zod schemas of core/schemas.ts.
import { z } from 'zod';
import { QupmError } from '../core/errors';
import { describeIssues, documentIdSchema } from '../core/schemas';

/** `value` parsed by `schema`, or INVALID_ARGUMENT with the first issue's path and message. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new QupmError('INVALID_ARGUMENT', describeIssues(result.error));
  return result.data;
}

export const uidParams = z.strictObject({ uid: documentIdSchema });
export const idParams = z.strictObject({ id: documentIdSchema });
export const messageParams = z.strictObject({ id: documentIdSchema, messageId: documentIdSchema });
export const tokenParams = z.strictObject({ uid: documentIdSchema, id: documentIdSchema });
export const callableParams = z.strictObject({ name: z.string().max(64) });
