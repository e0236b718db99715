/** GET /api/v1/openapi.json — the OpenAPI 3.1 document (built once; it depends only on the schemas). */
import { buildOpenApiDocument } from '../openapi.ts';

let body: string | undefined;

export async function getOpenApiDocument(): Promise<Response> {
  body ??= JSON.stringify(buildOpenApiDocument());
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}
