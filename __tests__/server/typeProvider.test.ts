// Zod for Fastify's route schemas (server/typeProvider.ts): inputs refused in the project's words, and answers
// written from their schemas by fast-json-stringify where it is faithful, with the tests' check that refuses an
// answer its schema does not describe (which the fast writer would otherwise change on its way out).
import { z } from 'zod';
import { QupmError } from '../../core/errors';
import {
  createSerializerCompiler,
  serializableSchema,
  validateInput,
  validatorCompiler,
} from '../../server/typeProvider';

const member = z.object({ uid: z.string(), nickname: z.string().nullable(), credits: z.number() });
const answer = { uid: 'uidMorgan', nickname: null, credits: 3 };

/** The writer Fastify would get for a route answering `schema`. */
const writerFor = (schema: z.core.$ZodType, check: boolean) =>
  createSerializerCompiler({ check })({ schema, method: 'GET', url: '/api/x', httpStatus: '200' });

describe('serializableSchema', () => {
  it('writes an object-or-null as the object, nullable, which fast-json-stringify writes exactly', () => {
    const withLast = z.object({ last: z.object({ id: z.string() }).nullable() });
    const json = serializableSchema(withLast) as { properties: Record<string, unknown> };
    expect(json.properties.last).toMatchObject({ type: 'object', nullable: true });
    const write = writerFor(withLast, true);
    expect(write({ last: null })).toBe('{"last":null}');
    expect(write({ last: { id: 'x' } })).toBe('{"last":{"id":"x"}}');
  });

  it('leaves a union to JSON.stringify (fast-json-stringify would pick a branch by guessing)', () => {
    const union = z.union([
      z.object({ kind: z.literal('text'), text: z.string() }),
      z.object({ kind: z.literal('file'), size: z.number() }),
    ]);
    expect(serializableSchema(union)).toBeNull();
    expect(writerFor(union, false)({ kind: 'file', size: 10 })).toBe('{"kind":"file","size":10}');
  });
});

describe('an answer written from its schema', () => {
  it('is the JSON that JSON.stringify writes, for an answer of its schema', () => {
    expect(JSON.parse(writerFor(member, false)(answer))).toEqual(answer);
    expect(JSON.parse(writerFor(member, true)(answer))).toEqual(answer);
  });

  it('would lose a field its schema lacks, so the tests’ check refuses the answer instead', () => {
    const more = { ...answer, passwordHash: 'scrypt$…' };
    expect(JSON.parse(writerFor(member, false)(more))).toEqual(answer);
    expect(() => writerFor(member, true)(more)).toThrow(
      'GET /api/x: its schema does not describe its answer',
    );
  });

  it('is refused by the check when a field has another type', () => {
    expect(() => writerFor(member, true)({ ...answer, credits: '3' })).toThrow(
      'GET /api/x answered outside its schema: credits:',
    );
  });
});

describe('inputs', () => {
  const body = z.object({ messageId: z.string().length(20) });

  it('are read by their schema', () => {
    expect(validateInput(body, { messageId: 'A'.repeat(20) })).toEqual({ messageId: 'A'.repeat(20) });
    expect(
      validatorCompiler({ schema: body, method: 'POST', url: '/api/x' })({ messageId: 'A'.repeat(20) }),
    ).toEqual({
      value: { messageId: 'A'.repeat(20) },
    });
  });

  it('are refused as INVALID_ARGUMENT naming the first issue, never with a validator’s raw list', () => {
    const thrown = (() => {
      try {
        validateInput(body, { messageId: 'short' });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(QupmError);
    expect(thrown).toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/^messageId: /),
    });
    const result = validatorCompiler({ schema: body, method: 'POST', url: '/api/x' })({ messageId: 1 });
    expect(result).toEqual({ error: expect.any(QupmError) });
  });
});
