/**
 * The Standard Schema interface (v1, https://standardschema.dev, `@standard-schema/spec`), declared
 * here as its authors recommend so the core needs no validation library in its public types. zod
 * (3.24+ and 4), Valibot, ArkType and others implement it; so can a hand-written object:
 *
 * ```ts
 * const schema: StandardSchemaV1<unknown, { url: string }> = {
 *   '~standard': {
 *     version: 1,
 *     vendor: 'my-plugin',
 *     validate: (input) =>
 *       typeof (input as { url?: unknown })?.url === 'string'
 *         ? { value: input as { url: string } }
 *         : { issues: [{ message: 'must be a string', path: ['url'] }] },
 *   },
 * };
 * ```
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The standard properties. */
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

// A namespace, as in the spec, so types written against `@standard-schema/spec` fit as they are.
export declare namespace StandardSchemaV1 {
  /** The standard properties of a schema. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version of the spec: 1. */
    readonly version: 1;
    /** The library that made the schema, e.g. `zod`. */
    readonly vendor: string;
    /** Validates `value`: a success holds the (possibly transformed) value, a failure its issues. */
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    /** Inferred types (types only; no value at runtime). */
    readonly types?: Types<Input, Output> | undefined;
  }

  /** What `validate` returns. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;

  /** A valid value. */
  export interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }

  /** An invalid value: one or more issues. */
  export interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }

  /** One problem with the value. */
  export interface Issue {
    /** Why the value is refused, e.g. `must be an http(s) URL`. */
    readonly message: string;
    /** Where in the value: keys, or segments holding a key. Absent for the value itself. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }

  /** One step of an issue's path. */
  export interface PathSegment {
    readonly key: PropertyKey;
  }

  /** The input and output types of a schema. */
  export interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }

  /** The input type of schema `Schema`. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['input'];

  /** The output type (after defaults and transforms) of schema `Schema`. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['output'];
}
