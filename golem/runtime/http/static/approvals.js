// The approvals panel: the trades the golem holds for its owner's approval, each with
// approve and deny buttons (GET /approvals, POST /approvals/ID). It uses the control
// token the Control section keeps in this tab's sessionStorage (dashboard.js); without a
// token, or when the golem has no control API, the panel stays hidden. Text from the
// golem is set as text.
"use strict";

(() => {
  const KEY = "golem-control-token";
  const REFRESH_MS = 5000;
  const section = document.getElementById("approvals");
  const list = document.getElementById("approval-list");
  const said = document.getElementById("approval-state");

  const token = () => sessionStorage.getItem(KEY); // dashboard.js's TOKEN_KEY

  const headers = (secret) => ({ Accept: "application/json", Authorization: `Bearer ${secret}` });
  const money = (v) => (typeof v === "number" ? `$${v.toLocaleString("en-US", { maximumFractionDigits: 2 })}` : "all");

  function item(row, secret) {
    const li = document.createElement("li");
    const what = document.createElement("span");
    what.textContent = `#${row.id} ${row.action} ${money(row.size_usd)} (stake ${money(row.stake_usd)}), ` +
      `tick ${row.tick}, until ${row.deadline.replace("T", " ").slice(0, 19)}: ${row.reason}`;
    li.append(what);
    for (const decision of ["approve", "deny"]) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = decision;
      button.dataset.decision = decision;
      button.setAttribute("aria-label", `${decision} trade ${row.id}`);
      button.addEventListener("click", () => answer(row.id, decision, secret));
      li.append(" ", button);
    }
    return li;
  }

  async function answer(id, decision, secret) {
    const response = await fetch(`/approvals/${id}`, {
      method: "POST",
      headers: { ...headers(secret), "Content-Type": "application/json" },
      body: JSON.stringify({ decision }),
    });
    const body = await response.json().catch(() => ({}));
    said.textContent = response.ok
      ? `#${id}: ${decision === "approve" ? "approved" : "denied"}; the golem acts on it at its next tick`
      : `#${id}: ${body.error || response.status}`;
    await refresh();
  }

  async function refresh() {
    const secret = token();
    if (!secret) {
      section.hidden = true;
      return;
    }
    let response;
    try {
      response = await fetch("/approvals?waiting=1", { headers: headers(secret) });
    } catch (error) {
      return; // the golem is gone or restarting: the next refresh tries again
    }
    if (!response.ok) {
      section.hidden = true; // no control API (404) or a wrong token (401)
      if (response.status === 401) sessionStorage.removeItem(KEY);
      return;
    }
    const rows = (await response.json()).approvals;
    section.hidden = false;
    list.replaceChildren(...rows.map((row) => item(row, secret)));
    document.getElementById("approval-count").textContent = `(${rows.length} waiting)`;
  }

  refresh();
  setInterval(refresh, REFRESH_MS);
  // A token entered or forgotten in the Control section shows or hides the panel at once
  // (after dashboard.js's own handler has kept or dropped it).
  for (const [id, event] of [["control-token-form", "submit"], ["control-forget", "click"]]) {
    const node = document.getElementById(id);
    if (node) node.addEventListener(event, () => setTimeout(refresh, 0));
  }
})();
