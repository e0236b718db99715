/**
 * Calls an endpoint's handler the way the pipeline does (its parameters read and validated, then `answer`),
 * without HTTP: the "unit style" half of the endpoint tests. Validation errors are thrown as the ApiError the
 * pipeline would turn into a 422.
 */
import type { ApiDeps } from '../../functions/deps.ts';
import { queryParamNames, type Endpoint } from '../../functions/endpoint.ts';
import { parseQuery, readQuery } from '../../functions/query.ts';
import { okText } from '../../functions/respond.ts';

/** A route-style function for `endpoint`: a Request in, the 200 envelope as a Response out. */
export function endpointHandler<Q>(endpoint: Endpoint<Q>) {
  const names = queryParamNames(endpoint.query);
  return async (request: Request, deps: Partial<ApiDeps>): Promise<Response> => {
    const query = parseQuery(readQuery(new URL(request.url).search), names, endpoint.query);
    const data = await endpoint.answer(query, deps as ApiDeps);
    return new Response(okText(data), { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
  };
}
