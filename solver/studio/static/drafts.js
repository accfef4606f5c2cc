// The drafts of the mission being drawn, kept in this browser: what this page draws, and a draft of
// before (a reload, a share link opened) offered back, never overwritten: the first edit sets it
// aside, still offered until restored or discarded. ``ed``: the editor (its ``owns`` flag, whether
// the stored draft is what this page drew, and ``load(text, file)``).
import { $, button, el } from "./dom.js";

const DRAFT = "kakapo-draft";  // what this page is drawing
const KEPT = "kakapo-drafts-kept";  // drafts set aside (a list), offered until restored or discarded

function readStored(key, otherwise) {
  try { return JSON.parse(localStorage.getItem(key) || "null") || otherwise; } catch (e) { return otherwise; }
}

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value));
  } catch (e) { /* private mode: nothing kept */ }
}

// a draft's name, from its text (for the words that offer it back)
function draftName(d) {
  const m = /^name\s*=\s*"((?:[^"\\]|\\.)*)"/m.exec(d.text || "");
  let name = null;
  try { name = m ? JSON.parse(`"${m[1]}"`) : null; } catch (e) { name = m ? m[1] : null; }
  return name ? ` (${name}${d.file ? `, ${d.file}` : ""})` : d.file ? ` (${d.file})` : "";
}

export function createDrafts(ed) {
  const readDraft = () => readStored(DRAFT, null);
  const readKept = () => readStored(KEPT, []).filter((d) => d && typeof d.text === "string");

  // a draft set aside: offered until restored or discarded
  function setAside(d) {
    const kept = readKept();
    if (!kept.some((k) => k.text === d.text)) store(KEPT, kept.concat([{ text: d.text, file: d.file || "" }]));
  }

  // the drawing kept as this page's draft; the first time, a draft of before is set aside, not lost
  function writeDraft() {
    const now = { text: $("toml").value, file: $("filename").value };
    if (!ed.owns) {
      const before = readDraft();
      if (before && before.text && before.text !== now.text) setAside(before);
      ed.owns = true;
    }
    store(DRAFT, now);
  }

  // the drafts offered back: the stored one while it is not this page's, and those set aside
  function offered() {
    const out = [];
    const d = readDraft();
    if (!ed.owns && d && d.text) out.push(d);
    for (const k of readKept()) if (k.text && !out.some((o) => o.text === k.text)) out.push(k);
    return out.filter((o) => o.text !== $("toml").value);
  }

  function forgetOffered(text) {
    store(KEPT, readKept().filter((k) => k.text !== text));
    const d = readDraft();
    if (!ed.owns && d && d.text === text) store(DRAFT, null);
  }

  async function restoreDraft(d) {
    const now = { text: $("toml").value, file: $("filename").value };
    forgetOffered(d.text);
    if (ed.owns && now.text !== d.text) setAside(now);  // what this page drew meanwhile is offered in turn
    await ed.load(d.text, d.file);
    offerDrafts();
  }

  function offerDrafts() {
    const box = $("draft");
    const list = offered();
    box.replaceChildren(...list.map((d, i) => {
      const row = el("div", null, "draftrow", { role: "group", "aria-label": `a draft not saved${draftName(d)}` });
      row.dataset.draftItem = String(i);
      row.append(el("span", `A mission you were drawing here was not saved${draftName(d)}. `),
        button("Restore it", () => restoreDraft(d), { "data-draft": "restore" }), " ",
        button("Discard it", () => { forgetOffered(d.text); offerDrafts(); }, { "data-draft": "discard" }));
      return row;
    }));
    box.hidden = !list.length;
  }

  // the mission was saved: a draft this page wrote is no longer needed (a draft of before stays offered)
  function saved() {
    if (ed.owns) store(DRAFT, null);
  }

  return { writeDraft, offerDrafts, saved };
}
