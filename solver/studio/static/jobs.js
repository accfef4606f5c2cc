// The jobs of this studio (GET /api/jobs, newest first): listed after a reload too, running and
// finished, each as an element data-job="ID" with data-state; one chosen shows its result (GET
// /api/jobs/ID), or, while it runs, its progress until it ends. The list follows the jobs while
// one of them is unfinished, and is read again when a job is started on the page.
import { api, message, runningWords } from "./api.js";
import { $, button, el } from "./dom.js";
import { showResult } from "./results.js";

const FINAL = ["done", "failed", "cancelled"];
const STARTS = "#j-start, #rt-rate, #r-start, #t-chance-btn";  // the page's buttons that start a job

// "2026-11-27T22:14:05" -> "22:14" today, else "27 Nov 22:14"
function when(stamp) {
  const t = new Date(stamp);
  if (Number.isNaN(t.getTime())) return stamp || "";
  const hm = t.toTimeString().slice(0, 5);
  return t.toDateString() === new Date().toDateString() ? hm : `${t.getDate()} ${t.toLocaleString("en", { month: "short" })} ${hm}`;
}

function stateWords(j) {
  if (j.state === "running") return `running (${runningWords(j)})`;
  return j.state + (j.error ? `: ${j.error}` : "");
}

export function createJobs() {
  let rows = [], chosen = null, timer = null, follow = null;

  function row(j) {
    const b = button("", () => choose(j.id), { "data-job-choose": j.id });
    b.append(el("span", `${j.about || j.kind}`, "jobabout"), el("span", ` ${stateWords(j)}, ${when(j.created)}`, "jobstate"));
    b.setAttribute("aria-pressed", chosen === j.id ? "true" : "false");
    const li = el("li", null, null, { "data-job": j.id, "data-state": j.state, "data-kind": j.kind });
    li.appendChild(b);
    return li;
  }

  // the list drawn again, keeping the element (and the focus) of a job whose line did not change
  function draw() {
    const list = $("jh-list");
    const old = new Map([...list.children].map((li) => [li.dataset.job, li]));
    const items = rows.map((j) => {
      const fresh = row(j);
      const was = old.get(j.id);
      return was && was.isEqualNode(fresh) ? was : fresh;
    });
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#jh-list li");
    const keep = focused ? focused.dataset.job : null;
    list.replaceChildren(...items);
    if (keep && !list.contains(document.activeElement)) {
      const again = list.querySelector(`[data-job-choose="${CSS.escape(keep)}"]`);
      if (again) again.focus();
    }
    $("jh-none").hidden = rows.length > 0;
  }

  async function refresh() {
    const res = await api("GET", "/api/jobs");
    if (!res.ok) { $("jh-state").textContent = `the jobs could not be listed: ${message(res)}`; return; }
    rows = res.doc;
    draw();
    clearTimeout(timer);
    if (rows.some((j) => !FINAL.includes(j.state))) timer = setTimeout(refresh, 1500);
  }

  // a job chosen: its result when it has one, its progress while it runs (read every second)
  async function choose(id) {
    chosen = id;
    clearTimeout(follow);
    draw();
    const res = await api("GET", `/api/jobs/${encodeURIComponent(id)}`);
    if (chosen !== id) return;
    const out = $("jh-result"), state = $("jh-state"), cancel = $("jh-cancel");
    if (!res.ok) { state.textContent = `job ${id}: ${message(res)}`; return; }
    const j = res.doc;
    const about = (rows.find((r) => r.id === id) || {}).about || j.kind;
    state.textContent = `${about}: ${stateWords(j)}`;
    state.dataset.state = j.state;
    state.dataset.job = id;
    $("jh-progress").value = j.progress || 0;
    $("jh-progress").hidden = FINAL.includes(j.state);
    cancel.disabled = FINAL.includes(j.state);
    cancel.onclick = async () => { await api("DELETE", `/api/jobs/${encodeURIComponent(id)}`); choose(id); refresh(); };
    if (j.state === "done" && j.result) showResult(out, j, $("jh-curve"), "history-curve");
    else { out.replaceChildren(); $("jh-curve").replaceChildren(); }
    if (!FINAL.includes(j.state)) follow = setTimeout(() => choose(id), 1000);
    else refresh();
  }

  return {
    init() {
      $("jh-refresh").addEventListener("click", refresh);
      document.addEventListener("click", (e) => {  // a job started on the page: listed once it is queued
        if (e.target.closest && e.target.closest(STARTS)) setTimeout(refresh, 600);
      });
      document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
      refresh();
    },
    refresh,
  };
}
