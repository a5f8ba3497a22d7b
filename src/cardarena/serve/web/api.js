// The page's only door to the server: the public /v1 table API (docs/protocol.md).

export class ApiError extends Error {}

let apiKey = "";

/** Send every later request with this API key (a server started with --api-keys needs one). */
export function useApiKey(key) {
  apiKey = key.trim();
}

/** The server's response to a request, or an ApiError when it does not answer. */
async function send(method, path, body) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (apiKey) headers["x-api-key"] = apiKey;
  try {
    return await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new ApiError(`the server is not reachable (${error.message}): is \`cardarena serve\` still running?`);
  }
}

/** A text file the server serves for the page (under /web/, as a game's rules page). */
export async function pageText(path) {
  if (!path.startsWith("/web/")) throw new ApiError(`${path} is not one of the page's files`);
  const response = await send("GET", path);
  if (!response.ok) throw new ApiError(`GET ${path}: the server answered ${response.status}`);
  return response.text();
}

/** A /v1 request; answers the JSON body, or throws an ApiError naming what went wrong. */
export async function api(method, path, body) {
  const response = await send(method, path, body);
  if (response.status === 204) return null;
  let answer;
  try {
    answer = await response.json();
  } catch {
    throw new ApiError(`${method} ${path}: the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new ApiError(`${answer.error ?? response.status}: ${answer.detail ?? response.statusText}`);
  return answer;
}

/** `path` with the query `params`, each value URL-encoded. */
export function withQuery(path, params) {
  return `${path}?${new URLSearchParams(params)}`;
}
