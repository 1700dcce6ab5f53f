// Zod for Fastify's route schemas: a type provider (a route's schemas type its request and reply), a validator
// compiler that answers the project's INVALID_ARGUMENT words (core/schemas.ts describeIssues), and a serializer
// compiler that writes an answer from its schema with fast-json-stringify where that is faithful.
//
// Written here rather than taken from fastify-type-provider-zod (7.0.0 supports zod 4 and Fastify 5): its
// validation errors are Fastify's AJV-shaped list, which the error handler would have to take apart again into
// these words; its serializer runs zod and then JSON.stringify on every answer (slower than Fastify's own
// fast-json-stringify, the point of a response schema); and it declares @fastify/swagger and openapi-types as
// required peers, which npm would install for nothing. What is left is some 60 lines.
import { isDeepStrictEqual } from 'node:util';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifyTypeProvider } from 'fastify';
import { z } from 'zod';
import { QupmError } from '../core/errors';
import { describeIssues } from '../core/schemas';

export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.core.$ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.core.$ZodType ? z.input<this['schema']> : unknown;
}

/** `value` read by `schema`, or INVALID_ARGUMENT with the first issue's path and message. */
export function validateInput<S extends z.core.$ZodType>(schema: S, value: unknown): z.output<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw new QupmError('INVALID_ARGUMENT', describeIssues(result.error));
  return result.data;
}

/**
 * Stands for a request without a body while it is validated: Fastify hands a validator `null` for a missing
 * body, and a JSON `null` is a different mistake with different words (server/api.ts sets it).
 */
export const NO_BODY: unique symbol = Symbol('no body');

export const validatorCompiler: FastifySchemaCompiler<z.core.$ZodType> =
  ({ schema }) =>
  (data) => {
    const result = z.safeParse(schema, data === NO_BODY ? undefined : data);
    return result.success
      ? { value: result.data }
      : { error: new QupmError('INVALID_ARGUMENT', describeIssues(result.error)) };
  };

type JsonSchema = Record<string, unknown>;

/** Keywords fast-json-stringify would have to guess at (it picks a branch by validating) or fill in. */
const UNFAITHFUL = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref', 'default']);

/**
 * The answer schema as JSON Schema for fast-json-stringify, or null when it cannot write it faithfully. A value
 * or null (`anyOf: [X, {type: 'null'}]`) becomes X with `nullable`, which it writes exactly.
 */
export function serializableSchema(schema: z.core.$ZodType): JsonSchema | null {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' });
  let faithful = true;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== 'object' || node === null) return node;
    const entries = Object.entries(node as JsonSchema).filter(([key]) => key !== '$schema');
    const anyOf = (node as JsonSchema).anyOf;
    if (Array.isArray(anyOf) && anyOf.length === 2) {
      const [value, nothing] = anyOf as JsonSchema[];
      if (nothing?.type === 'null' && value && typeof value.type === 'string')
        return { ...(visit(value) as JsonSchema), nullable: true };
    }
    if (entries.some(([key]) => UNFAITHFUL.has(key))) faithful = false;
    return Object.fromEntries(entries.map(([key, value]) => [key, visit(value)]));
  };
  const result = visit(json) as JsonSchema;
  return faithful ? result : null;
}

type Writer = (data: unknown) => string;

/**
 * Writers by answer schema, shared by every server of the process. Compiling all of them costs a server start
 * 60-170 ms on this machine (tests start hundreds of servers): each is built at its route's first answer instead.
 */
const writers = new WeakMap<z.core.$ZodType, Writer>();

function writerFor(schema: z.core.$ZodType): Writer {
  let writer = writers.get(schema);
  if (writer === undefined) {
    const json = serializableSchema(schema);
    writer = json
      ? fastJsonStringify(json as unknown as Parameters<typeof fastJsonStringify>[0])
      : (data) => JSON.stringify(data);
    writers.set(schema, writer);
  }
  return writer;
}

/**
 * Answers written from their schema: fast-json-stringify where serializableSchema says it is faithful,
 * JSON.stringify otherwise. `check` (tests) also reads every answer with its schema and compares the fast
 * writer's JSON with JSON.stringify's, so an answer with a field its schema lacks (which the fast writer would
 * drop) or of another type fails loudly instead of reaching a client changed.
 */
export function createSerializerCompiler({
  check,
}: {
  check: boolean;
}): FastifySerializerCompiler<z.core.$ZodType> {
  return ({ schema, method, url }) => {
    let writer: Writer | undefined;
    // A frozen answer (frozen all the way down, as server/db/rowCache.ts keeps its rows) cannot change: its JSON
    // is written once and kept with it for as long as the answer itself is kept.
    const written = new WeakMap<object, string>();
    const write = (data: unknown): string => {
      if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) {
        return (writer ??= writerFor(schema))(data);
      }
      let text = written.get(data);
      if (text === undefined) {
        text = (writer ??= writerFor(schema))(data);
        written.set(data, text);
      }
      return text;
    };
    if (!check) return write;
    return (data) => {
      const parsed = z.safeParse(schema, data);
      if (!parsed.success) {
        throw new Error(`${method} ${url} answered outside its schema: ${describeIssues(parsed.error)}`);
      }
      const text = write(data);
      if (!isDeepStrictEqual(JSON.parse(text), JSON.parse(JSON.stringify(data)))) {
        throw new Error(
          `${method} ${url}: its schema does not describe its answer (${JSON.stringify(data)})`,
        );
      }
      return text;
    };
  };
}
