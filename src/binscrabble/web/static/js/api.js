// Talking to the server: JSON in, JSON out, and one error shape ({"error": "..."}).

import { sentence, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function readError(response) {
  try {
    const body = await response.json();
    if (body && typeof body.error === "string") return sentence(body.error);
    if (body && body.detail) return JSON.stringify(body.detail);
  } catch {
    // The body was not JSON: fall back to the status line.
  }
  return t("The server answered {status} {text}. Try again.", { status: response.status, text: response.statusText });
}

export async function request(method, path, { token = null, body = undefined } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t("The server cannot be reached: check that it is running, then try again."));
  }
  if (!response.ok) throw new ApiError(response.status, await readError(response));
  const type = response.headers.get("Content-Type") || "";
  return type.includes("json") ? response.json() : response.text();
}

export const getJson = (path, token) => request("GET", path, { token });
export const postJson = (path, body, token) => request("POST", path, { token, body });

let metaPromise = null;

// The tile set, premium squares, levels, presets and switches, asked once per page.
export function loadMeta() {
  if (!metaPromise) metaPromise = getJson("/api/meta");
  return metaPromise;
}

export function liveUrl(gameId, token) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  return `${scheme}//${location.host}/api/games/${encodeURIComponent(gameId)}/live${query}`;
}
