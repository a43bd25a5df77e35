// api.js: the JSON calls to the server. A failed call throws an ApiError
// carrying the server's {code, args, text} so the page can translate it.
// Every call says the page's language (Accept-Language), for the texts the
// server writes in it (the director's result labels).

import { current } from './i18n.js';

export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || proxyError(status);
    super(e.text || `HTTP ${status}`);
    this.status = status;
    this.code = e.code || '';
    this.args = e.args || {};
    this.why = e.why || null; // the referee's explanation, for a translation
    this.text = e.text || `HTTP ${status}`;
    this.body = body;
  }
}

// proxyError is the error of an answer that is not the server's own (no
// JSON body): a proxy in front of it said so itself. nginx's own 413 is
// the usual one, at 1 MB by default, under the server's 16 MB rating list;
// a proxy's 502-504 means the server behind it is down.
function proxyError(status) {
  if (status === 413) {
    return { code: 'http.proxy-too-large', text: `The file is too large for a proxy in front of this server (HTTP 413).` };
  }
  if (status === 502 || status === 503 || status === 504) {
    return { code: 'http.proxy-down', args: { status: String(status) }, text: `The server behind this address does not answer (HTTP ${status}).` };
  }
  return {};
}

async function parse(r) {
  const type = r.headers.get('Content-Type') || '';
  const body = type.includes('json') ? await r.json().catch(() => null) : null;
  if (!r.ok) throw new ApiError(r.status, body);
  return body;
}

// getJSON fetches url; with timeout (ms) it gives up then, as a network
// that took the request and went silent would otherwise be waited on for
// minutes.
export async function getJSON(url, timeout) {
  const signal = timeout ? AbortSignal.timeout(timeout) : undefined;
  return parse(await fetch(url, { headers: { Accept: 'application/json', 'Accept-Language': current() }, cache: 'no-store', signal }));
}

export async function postJSON(url, data) {
  return parse(await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': current() },
    body: JSON.stringify(data),
  }));
}
