// Print for the table, and share: the mission in the editor printed as a card to set up the board
// or as a blank game sheet for a table of N (a PDF the server draws: `kakapo print`), the folder
// downloaded as one pack, and a pack opened into the folder, saying what came in, what the folder
// held already and what was refused (nothing is overwritten). The papers and table sizes are the
// server's.
import { api, exchange } from "./api.js";
import { $, el } from "./dom.js";
import { tableSizes } from "./gamerules.js";

export function createPrinting(editor, folderChanged) {
  const stem = () => editor.filename().replace(/\.toml$/i, "") || "mission";

  function players() {
    const sel = $("pr-players"), keep = sel.value;
    const counts = tableSizes((editor.state || {}).mode);  // the largest first: the mode's usual table
    sel.replaceChildren(...counts.map((n) => new Option(String(n), String(n))));
    if (counts.includes(parseInt(keep, 10))) sel.value = keep;
  }

  async function print(sheet) {
    const say = $("pr-msg");
    const what = sheet ? "game sheet" : "card";
    say.textContent = `drawing the ${what}…`;
    const body = { text: editor.text(), name: editor.filename(), paper: $("pr-paper").value, sheet };
    if (sheet) body.players = parseInt($("pr-players").value, 10);
    const file = `${stem()}-${sheet ? "sheet" : "card"}.pdf`;
    const wrong = await exchange("POST", "/api/print", body, file);
    say.textContent = wrong ? `not printed: ${wrong}` : `${file}: the ${what}, ready to print (${body.paper})`;
    say.dataset.state = wrong ? "error" : "done";
  }

  async function downloadPack() {
    const say = $("pk-msg");
    say.textContent = "packing the folder…";
    const wrong = await exchange("GET", "/api/packs/folder", undefined, `${folderName}.kakapo`);
    say.textContent = wrong ? `no pack: ${wrong}` : `${folderName}.kakapo: the folder's missions, catalogs and campaign`;
  }

  async function openPack(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    const say = $("pk-msg"), list = $("pk-result");
    say.textContent = `opening ${file.name}…`;
    list.replaceChildren();
    const wrong = await exchange("POST", "/api/packs", await file.arrayBuffer(), null, (doc) => {
      const added = [...doc.missions, ...doc.catalogs, ...(doc.campaign ? [doc.campaign] : [])];
      say.textContent = `${file.name}: ${added.length} file(s) added, ${doc.held.length} held already, `
        + `${doc.refused.length} refused`;
      for (const name of added) list.appendChild(el("li", `added ${name}`, "ok", { "data-pack-file": name, "data-pack-state": "added" }));
      for (const name of doc.held) list.appendChild(el("li", `${name}: the folder has it already`, "ok", { "data-pack-file": name, "data-pack-state": "held" }));
      for (const r of doc.refused) list.appendChild(el("li", `${r.file}: ${r.why}`, "error", { "data-pack-file": r.file, "data-pack-state": "refused" }));
    });
    if (wrong) say.textContent = `${file.name} was not opened: ${wrong}`;
    input.value = "";
    await folderChanged();
  }

  let folderName = "folder";
  return {
    async init() {
      const rules = await api("GET", "/api/rules");
      const papers = rules.ok && rules.doc.papers ? rules.doc.papers : [];
      $("pr-paper").replaceChildren(...papers.map((p) => new Option(p === "a4" ? "A4" : p[0].toUpperCase() + p.slice(1), p)));
      const status = await api("GET", "/api/status");
      if (status.ok && status.doc.dir) folderName = status.doc.dir.split(/[\\/]/).filter(Boolean).pop() || "folder";
      players();
      editor.onChange(players);
      $("pr-card").addEventListener("click", () => print(false));
      $("pr-sheet").addEventListener("click", () => print(true));
      $("pk-download").addEventListener("click", downloadPack);
      $("pk-open").addEventListener("change", (e) => openPack(e.target));
    },
  };
}
