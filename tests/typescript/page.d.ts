// The names the page's JavaScript (web/) types itself with, through JSDoc: `Api<'GameView'>` is
// the schema of that name in the OpenAPI document (generated/openapi.d.ts, made from
// openapi/openapi.json by openapi-typescript), and `Answer<'GET', '/games/{id}'>` what that
// operation answers. A schema renamed or reshaped in the document fails
// scripts/check-page-types wherever the page reads it through a typed value (not through a
// cast, nor a field read by a string key); a path, a query parameter or a request body that
// the page sends and the document lacks fails `call` (web/api.js). Nothing here reaches the
// browser.

import type { components, paths } from "./generated/openapi.js";

type JsonOf<X> = X extends { content: { "application/json": infer B } } ? B : never;
type SuccessOf<Res> = Res extends { 200: infer S } ? JsonOf<S>
  : Res extends { 201: infer S } ? JsonOf<S>
  : Res extends { 204: unknown } ? null
  : never;

declare global {
  /** The OpenAPI document's schema named `K`. */
  type Api<K extends keyof components["schemas"]> = components["schemas"][K];

  /** An HTTP method the page calls the API with. */
  type Verb = "GET" | "POST" | "PUT" | "DELETE";

  /** An operation's path in the document, without the `/api/v1` the page puts before it. */
  type Route = keyof paths extends infer K ? (K extends `/api/v1${infer R}` ? R : never) : never;

  /** The document's operation `M` on `R` (never: it has none). */
  type Operation<M extends Verb, R extends Route> = NonNullable<paths[`/api/v1${R}`][Lowercase<M>]>;

  /** The paths that have an operation `M`. */
  type RouteOf<M extends Verb> = {
    [R in Route]: [Operation<M, R>] extends [never] ? never : R;
  }[Route];

  /** What operation `M` on `R` answers on success, as JSON (null: no body). */
  type Answer<M extends Verb, R extends Route> =
    Operation<M, R> extends { responses: infer Res } ? SuccessOf<Res> : never;

  /** The JSON body operation `M` on `R` takes (undefined: none). */
  type RequestBody<M extends Verb, R extends Route> =
    Operation<M, R> extends { requestBody: { content: { "application/json": infer B } } } ? B
    : Operation<M, R> extends { requestBody?: { content: { "application/json": infer B } } } ? B
    : undefined;

  /** The query parameters operation `M` on `R` takes (one null, undefined or empty is not sent). */
  type QueryOf<M extends Verb, R extends Route> =
    Operation<M, R> extends { parameters: { query?: infer Q } }
      ? { [K in keyof NonNullable<Q>]?: NonNullable<Q>[K] | null }
      : never;

  /** The parameters in the path of operation `M` on `R` (`{ id: number }`). */
  type PathOf<M extends Verb, R extends Route> =
    Operation<M, R> extends { parameters: { path: infer P } } ? P : never;

  /** What `call` (web/api.js) takes after the route: the path's parameters when it has some
   * and the body when the operation requires one, each then required; the query, a query
   * passed on as it is (`search`), headers and an abort signal. */
  type CallParts<M extends Verb, R extends Route> = {
    query?: QueryOf<M, R>;
    search?: URLSearchParams;
    headers?: Record<string, string>;
    signal?: AbortSignal;
  } & ([PathOf<M, R>] extends [never] ? { path?: undefined } : { path: PathOf<M, R> })
    & (Operation<M, R> extends { requestBody: object } ? { body: RequestBody<M, R> } : { body?: RequestBody<M, R> });

  /** `call`'s arguments after the route: left out when nothing in them is required. */
  type CallRest<M extends Verb, R extends Route> =
    {} extends CallParts<M, R> ? [parts?: CallParts<M, R>] : [parts: CallParts<M, R>];
}
