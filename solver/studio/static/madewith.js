// The catalog a mission, a share link or a table's saved state was made with, beside the one in
// use. A mission file says it (pieces_digest); a link or a saved state made with a catalog other
// than the bundled one also carries that catalog's text. Where the two differ the page says so and
// offers to use the catalog it was made with: from the folder, or saved into it from the text
// carried. Nothing is read with other shapes in silence (the server refuses such a mission, too).
import { api, message } from "./api.js";
import { button, el } from "./dom.js";

const known = { rows: [], carried: new Map() };  // the folder's catalogs; digest -> a catalog text carried
let refresh = async () => {};  // the Catalog menu and the pieces drawn, read again after a switch
const afterSwitch = [];  // what checks its text again once another catalog is in use

export function setCatalogRows(rows, reread) {
  known.rows = rows;
  if (reread) refresh = reread;
}
export const onCatalogSwitch = (f) => afterSwitch.push(f);
export async function catalogSwitched() { for (const f of afterSwitch) await f(); }
export const catalogInUse = () => known.rows.find((r) => r.current) || null;

// the text of the catalog in use, when it is not the bundled one (what a link or a saved state carries)
export async function carriedText() {
  const c = catalogInUse();
  if (!c || c.file === null) return null;
  const res = await api("GET", `/api/catalogs/text?file=${encodeURIComponent(c.file)}`);
  return res.ok ? res.doc.text : null;
}

// a catalog's text a link or a file carried, remembered by its digest
export async function carry(text) {
  if (typeof text !== "string" || !text) return null;
  const res = await api("POST", "/api/catalogs/validate", { text });
  if (!res.ok || !res.doc.valid || !res.doc.digest) return null;
  known.carried.set(res.doc.digest, text);
  return res.doc.digest;
}

// a mission's text with the digest of the catalog in use written in, when that is not the bundled
// one and the text says nothing yet (what is saved, downloaded or shared says what it was made with)
export function stamped(text) {
  const c = catalogInUse();
  if (!c || c.file === null || !c.digest || /^\s*pieces_digest\s*=/m.test(text)) return text;
  const line = `pieces_digest = "${c.digest}"`;
  return /^board\s*=/m.test(text) ? text.replace(/^board\s*=/m, `${line}\nboard =`) : `${text.replace(/\n?$/, "\n")}${line}\n`;
}

// the catalog of the whole studio switched from a notice: said in that notice once the mission reads
// (every tab uses the catalog in use: the missions, new games and recordings, the checks)
const switched = new WeakMap();  // box -> what it says after the switch

async function use(box, file, status) {
  const res = await api("POST", "/api/catalogs", { file });
  status.textContent = res.ok ? `now using ${file || "the bundled catalog"}` : `not switched: ${message(res)}`;
  if (!res.ok) return;
  switched.set(box, `The studio now uses ${file || "the bundled catalog"} for everything: the missions it opens `
    + "and checks, new games and recordings. The Catalog menu at the top switches back.");
  await refresh();
  await catalogSwitched();
}

async function saveAndUse(box, text, nameInput, status) {
  let file = nameInput.value.trim();
  if (!file.endsWith(".toml")) file += ".toml";
  const res = await api("POST", "/api/catalogs/save", { file, text, replace: false });
  if (!res.ok) { status.textContent = `not saved: ${message(res)}`; return; }
  await use(box, res.doc.file, status);
}

// the notice in ``box`` for a check document ({pieces_digest, catalog_digest}); hidden when they agree.
// ``what``: the thing made with it, as the notice names it ("this mission", "the saved table")
export function offer(box, doc, what) {
  const wanted = doc ? doc.pieces_digest : null;
  if (!wanted || wanted === doc.catalog_digest) {
    const said = switched.get(box);
    switched.delete(box);
    box.hidden = !said;
    box.replaceChildren(...(said ? [el("span", said, null, { "data-catalog-switched": "" })] : []));
    delete box.dataset.madeWith;
    return;
  }
  box.hidden = false;
  box.dataset.madeWith = wanted;
  const status = el("span", "", "madewith-status", { role: "status" });
  const parts = [el("span", `${what} was made with another catalog (digest ${wanted}) than the one in use: `
    + "its pieces are not these shapes. ")];
  const row = known.rows.find((r) => r.valid && r.digest === wanted);
  const text = known.carried.get(wanted);
  if (row) {
    parts.push(button(`Use ${row.file || "the bundled catalog"} in the whole studio`, () => use(box, row.file, status),
                      { "data-use-catalog": row.file || "" }));
  } else if (text) {
    const name = el("input", null, null, { "aria-label": "file name for the catalog it carries", size: "18" });
    name.value = `shared-${wanted.slice(0, 8)}.toml`;
    parts.push(el("span", "It carries that catalog: "), name,
               button("Save it into the folder and use it in the whole studio", () => saveAndUse(box, text, name, status),
                      { "data-use-catalog": "carried" }));
  } else {
    parts.push(el("span", "That catalog is not in this folder: put its file into the folder (or draw it in the "
      + "Pieces tab) to use it."));
  }
  parts.push(status);
  box.replaceChildren(...parts);
}
