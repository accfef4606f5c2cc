// The studio's JSON API: one call, and a job followed to its end through its event stream.
import { $ } from "./dom.js";

export async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  let res;
  try { res = await fetch(path, opts); } catch (e) { return { status: 0, ok: false, doc: null }; }
  let doc = null;
  try { doc = await res.json(); } catch (e) { doc = null; }
  return { status: res.status, ok: res.ok, doc };
}

export const message = (res) => (res.doc && res.doc.error ? res.doc.error.message : `the studio answered ${res.status}`);

// A job's progress into the panel whose elements are PREFIX-progress, PREFIX-state and
// PREFIX-cancel, until it ends; onDone(kind, result) when it is done; onPartial(pieces) while
// it runs, with the pieces of the answer known so far (a review's decisions). ``token``: the
// job's own (a seat's page has no other way to it). Returns the event source.
export function followJob(id, prefix, onDone, token, onPartial) {
  const cancel = $(`${prefix}-cancel`);
  if (cancel) {
    cancel.disabled = !!token;
    cancel.onclick = () => api("DELETE", `/api/jobs/${encodeURIComponent(id)}`);
  }
  const ev = new EventSource(`/api/jobs/${encodeURIComponent(id)}/events` + (token ? `?token=${encodeURIComponent(token)}` : ""));
  ev.onmessage = async (m) => {
    const j = JSON.parse(m.data);
    $(`${prefix}-progress`).value = j.progress;
    const line = $(`${prefix}-state`);
    line.textContent = `${j.kind}: ${j.state}` + (j.state === "running" ? ` (${Math.round(100 * j.progress)} %)` : "")
      + (j.error ? `: ${j.error}` : "");
    line.dataset.state = j.state;
    if (onPartial && j.partial) onPartial(j.partial);
    if (["done", "failed", "cancelled"].includes(j.state)) {
      ev.close();
      if (cancel) cancel.disabled = true;
      if (j.state === "done") await onDone(j.kind, j.result);
    }
  };
  return ev;
}
