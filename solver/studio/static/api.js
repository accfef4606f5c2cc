// The studio's JSON API: one call, and a job followed to its end through its event stream.
// Off loopback the host's requests carry `Authorization: token T` (the host token, kept in this
// tab's sessionStorage, never in a cookie); a seat's requests carry its own token in their URL.
import { $, el } from "./dom.js";

export const HOST_TOKEN = "kakapo-host-token";

export function hostToken() {
  try { return sessionStorage.getItem(HOST_TOKEN); } catch (e) { return null; }
}

export function forgetHostToken() {
  try { sessionStorage.removeItem(HOST_TOKEN); } catch (e) { /* storage refused */ }
}

function headers(extra) {
  const h = { ...(extra || {}) };
  const t = hostToken();
  if (t) h.Authorization = `token ${t}`;
  return h;
}

export async function api(method, path, body) {
  const opts = { method, headers: headers() };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  let res;
  try { res = await fetch(path, opts); } catch (e) { return { status: 0, ok: false, doc: null }; }
  let doc = null;
  try { doc = await res.json(); } catch (e) { doc = null; }
  return { status: res.status, ok: res.ok, doc };
}

export const message = (res) => (res.doc && res.doc.error ? res.doc.error.message
  : res.status === 0 ? "the studio cannot be reached" : `the studio answered ${res.status}`);

// A file of the API (a game's log) saved through the browser: fetched with the host's header (a
// plain link could not carry it), then handed over as a Blob. Returns null, or what went wrong.
export async function download(path, filename) {
  let res;
  try { res = await fetch(path, { headers: headers() }); } catch (e) { return "the studio cannot be reached"; }
  if (!res.ok) {
    let doc = null;
    try { doc = await res.json(); } catch (e) { doc = null; }
    return message({ status: res.status, doc });
  }
  saveBlob(await res.blob(), filename);
  return null;
}

// A file the API answers to a request (a printed PDF), saved through the browser as ``filename``;
// ``body``: JSON, or the bytes of a file to send as it is (a pack). Returns null, or what went
// wrong; ``onDoc`` gets a JSON answer instead of a file.
export async function exchange(method, path, body, filename, onDoc) {
  const opts = { method, headers: headers() };
  if (body instanceof ArrayBuffer || body instanceof Blob) {
    opts.headers["Content-Type"] = "application/zip";
    opts.body = body;
  } else if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try { res = await fetch(path, opts); } catch (e) { return "the studio cannot be reached"; }
  const json = (res.headers.get("content-type") || "").startsWith("application/json");
  if (!res.ok || json) {
    let doc = null;
    try { doc = await res.json(); } catch (e) { doc = null; }
    if (res.ok && onDoc) { onDoc(doc); return null; }
    return message({ status: res.status, doc });
  }
  saveBlob(await res.blob(), filename);
  return null;
}

function saveBlob(blob, filename) {
  const a = el("a", null, null, { download: filename });
  a.href = URL.createObjectURL(blob);
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// A running job's progress in words: its share done and, once it can be told, the time left.
export function runningWords(j) {
  const done = `${Math.round(100 * (j.progress || 0))} %`;
  if (j.left_s === null || j.left_s === undefined) return done;
  const left = j.left_s < 90 ? `${Math.max(1, Math.round(j.left_s))} s` : `${Math.round(j.left_s / 60)} min`;
  return `${done}, about ${left} left`;
}

// A job's progress into the panel whose elements are PREFIX-progress, PREFIX-state and
// PREFIX-cancel, until it ends; onDone(kind, result) when it is done; onPartial(pieces) while
// it runs, with the pieces of the answer known so far (a review's decisions). ``token``: the
// job's own, which every job start answers with (an event stream cannot send the host's header,
// so it always goes in the stream's address). ``canCancel``: false on a seat's page (cancelling
// needs the host). Returns the event source.
export function followJob(id, prefix, onDone, token, onPartial, canCancel = true) {
  const cancel = $(`${prefix}-cancel`);
  if (cancel) {
    cancel.disabled = !canCancel;
    cancel.onclick = () => api("DELETE", `/api/jobs/${encodeURIComponent(id)}`);
  }
  const ev = new EventSource(`/api/jobs/${encodeURIComponent(id)}/events` + (token ? `?token=${encodeURIComponent(token)}` : ""));
  ev.onmessage = async (m) => {
    const j = JSON.parse(m.data);
    $(`${prefix}-progress`).value = j.progress;
    const line = $(`${prefix}-state`);
    line.textContent = `${j.kind}: ${j.state}` + (j.state === "running" ? ` (${runningWords(j)})` : "")
      + (j.error ? `: ${j.error}` : "");
    line.dataset.state = j.state;
    if (onPartial && j.partial) onPartial(j.partial);
    if (["done", "failed", "cancelled"].includes(j.state)) {
      ev.close();
      if (cancel) cancel.disabled = true;
      if (j.state === "done") await onDone(j.kind, j.result, j);
    }
  };
  return ev;
}
