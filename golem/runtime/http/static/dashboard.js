// The golem dashboard: draws /status and /history, lists /decisions and follows /events.
// Plain JavaScript and SVG; nothing is fetched from anywhere but this origin. Every text
// that comes from the golem (model output included) is set as text, never as markup.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const KEEP = 100; // decisions listed
const REFRESH_MS = 5000;
const PHASES = ["thriving", "stable", "conservation", "declining", "terminal", "dead"];
const PHASE_COLOURS = {
  thriving: "#0b6e4f", stable: "#0b57d0", conservation: "#8a5a00",
  declining: "#b3261e", terminal: "#5c0011", dead: "#333333",
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = tag.startsWith("svg:")
    ? document.createElementNS(SVG, tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (key === "style") node.style.cssText = value; // CSSOM: allowed by the page's policy
    else node.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

const usd = (v, digits = 4) => {
  if (typeof v !== "number") return "–";
  const text = Math.abs(v).toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: Math.min(2, digits) });
  return (v < 0 && Number(text.replace(/,/g, "")) !== 0 ? "−$" : "$") + text;
};
const num = (v, digits = 3) => (typeof v === "number" ? v.toFixed(digits) : "–");
// A time on an axis: its clock time for a span within a day, with its date beyond.
const axisTime = (t, span) => {
  const text = shortTime(new Date(t).toISOString());
  return span < 86400000 ? text.slice(11, 16) : text.slice(0, 16);
};
const shortTime = (iso) => (iso ? iso.replace("T", " ").replace(/(\.\d+)?(\+00:00|Z)$/, "") : "");

async function getJSON(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

// --- charts --------------------------------------------------------------------------

// Drawn at the width shown (one SVG unit a pixel: text is never stretched); redrawn when
// the window's width changes.
const drawnWidth = (svg) => Math.max(240, Math.round(svg.getBoundingClientRect().width) || 600);

function lineChart(svg, series, { min = null, max = null, format = (v) => num(v, 2) } = {}) {
  const width = drawnWidth(svg), height = 180, left = 56, right = 8, top = 8, bottom = 22;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  for (const child of [...svg.childNodes]) if (child.nodeName !== "title") child.remove();
  const points = series.flatMap((s) => s.points);
  svg.dataset.points = String(points.length);
  if (points.length === 0) {
    svg.append(el("svg:text", { x: left, y: height / 2 }, "no readings yet"));
    return;
  }
  const times = points.map((p) => p[0]);
  const values = points.map((p) => p[1]);
  let t0 = Math.min(...times), t1 = Math.max(...times);
  if (t1 === t0) { t0 -= 1; t1 += 1; }
  let lo = min ?? Math.min(...values), hi = max ?? Math.max(...values);
  if (hi === lo) { lo -= Math.abs(lo) * 0.01 || 1; hi += Math.abs(hi) * 0.01 || 1; }
  const x = (t) => left + ((t - t0) / (t1 - t0)) * (width - left - right);
  const y = (v) => top + (1 - (v - lo) / (hi - lo)) * (height - top - bottom);
  svg.append(
    el("svg:line", { class: "axis", x1: left, x2: width - right, y1: y(lo), y2: y(lo) }),
    el("svg:line", { class: "axis", x1: left, x2: left, y1: top, y2: height - bottom }),
    el("svg:text", { x: left - 4, y: y(hi) + 10, "text-anchor": "end" }, format(hi)),
    el("svg:text", { x: left - 4, y: y(lo), "text-anchor": "end" }, format(lo)),
    el("svg:text", { x: left, y: height - 6 }, axisTime(t0, t1 - t0)),
    el("svg:text", { x: width - right, y: height - 6, "text-anchor": "end" }, axisTime(t1, t1 - t0)),
  );
  for (const s of series) {
    if (s.points.length === 0) continue;
    const coords = s.points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`);
    if (coords.length === 1) coords.push(coords[0].replace(/^[\d.]+/, (v) => String(Number(v) + 2)));
    svg.append(el("svg:polyline", { points: coords.join(" "), stroke: s.colour, "stroke-dasharray": s.dash }));
  }
}

function legend(node, series) {
  node.replaceChildren(...series.map((s) =>
    el("span", {}, el("span", { class: "key", style: `background:${s.colour}` }), s.name)));
}

function phaseBand(svg, readings) {
  const width = drawnWidth(svg), height = 28;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  for (const child of [...svg.childNodes]) if (child.nodeName !== "title") child.remove();
  if (readings.length === 0) return;
  const t = readings.map((r) => Date.parse(r.time));
  const t0 = t[0], t1 = Math.max(t[t.length - 1], t0 + 1);
  const x = (v) => 56 + ((v - t0) / (t1 - t0)) * (width - 64);
  readings.forEach((r, i) => {
    const end = i + 1 < readings.length ? t[i + 1] : t1;
    svg.append(el("svg:rect", {
      x: x(t[i]), y: 4, height: 20, width: Math.max(1, x(end) - x(t[i])), "shape-rendering": "crispEdges",
      fill: PHASE_COLOURS[r.phase] || "#777",
    }, el("svg:title", {}, `${r.phase} from ${shortTime(r.time)}`)));
  });
  const seen = PHASES.filter((p) => readings.some((r) => r.phase === p));
  legend($("legend-phase"), seen.map((p) => ({ name: p, colour: PHASE_COLOURS[p] })));
}

// --- status, history -------------------------------------------------------------------

function figures(node, rows) {
  node.replaceChildren(...rows.map(([name, value]) =>
    el("div", {}, el("dt", {}, name), el("dd", {}, value))));
}

function drawStatus(status) {
  $("golem-id").textContent = status.golem;
  document.title = `golem ${status.golem}`;
  const phase = $("phase");
  phase.textContent = status.alive ? status.phase : "dead";
  phase.className = `phase phase-${status.alive ? status.phase : "dead"}`;
  const where = status.recorded ? "a finished life, read from its out directory"
    : status.paused ? "live, paused by its owner" : "live";
  $("state").textContent = `${where} · tick ${status.tick} · ${shortTime(status.time)} UTC`;
  figures($("figures"), [
    ["vitality", num(status.vitality)],
    ["economic clock", num(status.clocks.economic)],
    ["epistemic clock", num(status.clocks.epistemic)],
    ["credits", usd(status.credits_usd)],
    ["burn per tick", usd(status.burn_rate_usd, 6)],
    ["death probability", status.death_probability == null ? "–" : num(status.death_probability, 4)],
  ]);
  const budgets = status.budgets;
  // A finished life's budgets are not kept: what each line spent on its last day is.
  $("budget-title").textContent = status.recorded ? "Spent on the last day logged" : "Budget lines today";
  $("budget-day").textContent = budgets.day ? `(${budgets.day})` : "";
  const unbounded = status.recorded ? "not kept" : "unlimited";
  const row = (name, line) => el("tr", {},
    el("th", { scope: "row" }, name),
    el("td", {}, line.budget_usd == null ? unbounded : usd(line.budget_usd)),
    el("td", {}, usd(line.spent_usd)),
    el("td", {}, line.left_usd == null ? "–" : usd(line.left_usd)));
  const rows = Object.entries(budgets.subsystems).map(([name, line]) => row(name, line));
  rows.push(row("daily cap", { budget_usd: budgets.daily_budget_usd, spent_usd: budgets.spent_usd, left_usd: budgets.left_usd }));
  $("budgets").tBodies[0].replaceChildren(...rows);
}

function drawHistory(history) {
  const readings = history.readings;
  const at = (key) => readings.filter((r) => typeof r[key] === "number").map((r) => [Date.parse(r.time), r[key]]);
  const clocks = [
    { name: "vitality", colour: "#1b1b1b", points: at("vitality") },
    { name: "economic", colour: "#0b6e4f", points: at("economic"), dash: "6 3" },
    { name: "epistemic", colour: "#7b3fa0", points: at("epistemic"), dash: "2 3" },
  ];
  lineChart($("chart-vitality"), clocks, { min: 0, max: 1 });
  legend($("legend-vitality"), clocks);
  phaseBand($("chart-phase"), readings);
  const credits = [{ name: "credits (USD)", colour: "#0b57d0", points: at("credits_usd") }];
  lineChart($("chart-credits"), credits, { format: (v) => usd(v, 2) });
  legend($("legend-credits"), credits);
  drawSpend(history.spend_usd, history.decisions);
  drawPortfolio(history.portfolio, readings);
}

function drawSpend(spend, decisions) {
  // A restarted golem's spend reaches back before the decisions this process has seen.
  const names = [...new Set([...Object.keys(decisions), ...Object.keys(spend)])].sort();
  const top = Math.max(0, ...Object.values(spend));
  const rows = names.map((name) => {
    const value = spend[name] || 0;
    const share = top > 0 ? (100 * value) / top : 0;
    return el("div", { class: "bar" },
      el("span", {}, name),
      el("div", { role: "presentation" }, el("div", { class: "fill", style: `width:${share.toFixed(1)}%` })),
      el("span", { class: "usd" }, usd(value)));
  });
  if (rows.length === 0) rows.push(el("p", { class: "muted" }, "no decision yet"));
  $("spend").replaceChildren(...rows);
}

function drawPortfolio(portfolio, readings) {
  if (!portfolio) return;
  const asset = portfolio.config.asset;
  const mark = portfolio.marks[asset];
  const held = portfolio.positions[asset];
  const quantity = held ? held[0] : 0;
  const equity = portfolio.cash + Object.entries(portfolio.positions)
    .reduce((sum, [a, [q]]) => sum + q * (portfolio.marks[a] || 0), 0);
  const priced = readings.filter((r) => typeof r.price === "number" && typeof r.equity_usd === "number");
  const first = priced[0];
  const holdNow = first && mark ? first.equity_usd * (mark / first.price) : null;
  figures($("portfolio"), [
    ["equity", usd(equity, 2)],
    ["cash", usd(portfolio.cash, 2)],
    [`${asset} held`, quantity.toFixed(6)],
    [`${asset} price`, mark ? usd(mark, 2) : "–"],
    ["P&L", usd(equity - portfolio.initial_cash, 2)],
    [`holding ${asset}`, holdNow == null ? "–" : usd(holdNow - first.equity_usd, 2)],
    ["fees paid", usd(portfolio.fees_paid, 2)],
  ]);
  const series = [
    { name: "equity", colour: "#0b6e4f", points: priced.map((r) => [Date.parse(r.time), r.equity_usd]) },
    {
      name: `holding ${asset} from the first reading`, colour: "#8a5a00", dash: "6 3",
      points: priced.map((r) => [Date.parse(r.time), first.equity_usd * (r.price / first.price)]),
    },
  ];
  lineChart($("chart-equity"), series, { format: (v) => usd(v, 0) });
  legend($("legend-equity"), series);
}

// --- decisions ---------------------------------------------------------------------------

function facts(rows) {
  return el("dl", {}, ...rows.filter(([, v]) => v !== null && v !== undefined && v !== "")
    .flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
}

function reasoningPanel(d) {
  const chain = d.reasoning;
  const tokens = (d.tokens && d.tokens.reasoning) || 0;
  const panel = el("div", { class: "panel reasoning" });
  if (chain && typeof chain === "object") {
    const count = chain.tokens || tokens;
    const title = ["reasoning", [chain.provider, chain.model].filter(Boolean).join(":"),
      chain.visibility, count ? `${count.toLocaleString()} tokens` : ""].filter(Boolean).join(" · ");
    panel.append(el("h4", {}, title));
    if (chain.text) panel.append(el("pre", {}, chain.text));
    else panel.append(el("p", { class: "hidden-reasoning" }, `reasoning performed (not visible): ${count ? count.toLocaleString() + " tokens" : "tokens not reported"}`));
  } else if (d.reasoning_summary) {
    panel.append(el("h4", {}, "reasoning · its first 240 characters"), el("pre", {}, d.reasoning_summary));
  } else {
    panel.append(el("h4", {}, "reasoning"), el("p", { class: "hidden-reasoning" },
      tokens ? `reasoning performed (not visible): ${tokens.toLocaleString()} tokens`
        : d.source === "model" ? "no reasoning: the model answered without thinking first"
          : `no model asked (${d.source})`));
  }
  return panel;
}

function decisionItem(d, fresh) {
  const tokens = d.tokens || {};
  const body = el("div", {},
    el("div", { class: "panel" }, el("h4", {}, `decision ${d.id || d.reused_from || ""}`.trim()), facts([
      ["time", shortTime(d.time)], ["tick", d.tick], ["subsystem", `${d.subsystem} (tier ${d.tier})`],
      ["model", [d.provider, d.model].filter(Boolean).join(":") || d.source],
      ["reasoning depth", d.reasoning_depth], ["decided", d.summary], ["cost", usd(d.cost_usd, 6)],
      ["tokens", ["input", "output", "reasoning"].filter((k) => tokens[k]).map((k) => `${k} ${tokens[k].toLocaleString()}`).join(", ")],
      ["vitality", `${num(d.vitality)} ${d.phase}`], ["error", d.error], ["skipped", d.skip_reason],
    ])),
    reasoningPanel(d));
  if (d.provenance !== undefined) {
    body.append(el("div", { class: "panel provenance" }, el("h4", {}, "provenance"), el("pre", {}, JSON.stringify(d.provenance, null, 2))));
  }
  if (d.decision && typeof d.decision === "object") {
    body.append(el("div", { class: "panel" }, el("h4", {}, "answer"), el("pre", {}, JSON.stringify(d.decision, null, 2))));
  }
  const summary = el("summary", {},
    el("span", { class: "tag" }, shortTime(d.time).slice(11) || shortTime(d.time)),
    el("span", { class: "tag" }, `${d.subsystem} · ${d.source}`),
    el("span", { class: "what" }, d.summary || d.skip_reason || d.error || "–"),
    el("span", { class: "tag" }, usd(d.cost_usd, 6)));
  const attrs = { class: fresh ? "new" : null, "data-id": d.id || null, "data-tick": d.tick, "data-subsystem": d.subsystem };
  return el("li", attrs,
    el("details", {}, summary, body));
}

function addDecision(d, fresh) {
  const list = $("decision-list");
  list.prepend(decisionItem(d, fresh));
  while (list.children.length > KEEP) list.lastElementChild.remove();
  $("decision-count").textContent = `(last ${list.children.length})`;
}

// --- control: the owner's commands (POST /control/..., with the bearer token) -------------

const TOKEN_KEY = "golem-control-token"; // in sessionStorage: this tab only, never a URL

function controlSaid(text, refused = false) {
  const said = $("control-said");
  said.textContent = text;
  said.classList.toggle("refused", refused);
}

async function sendCommand(command, body) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) {
    controlSaid("Enter the control token first.", true);
    $("control-token").focus();
    return;
  }
  let response;
  try {
    response = await fetch(`/control/${command}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? "{}" : JSON.stringify(body),
    });
  } catch (error) {
    controlSaid(`${command}: not sent (${error.message})`, true);
    return;
  }
  const answer = await response.json().catch(() => ({}));
  if (response.status === 401) sessionStorage.removeItem(TOKEN_KEY);
  if (response.ok) {
    const value = answer.value == null ? "" : ` ${usd(answer.value, 2)}`;
    controlSaid(`${answer.command}${value} queued (#${answer.id}): applies at the next tick.`);
  } else {
    controlSaid(`${command} refused (${response.status}): ${answer.error || response.statusText}`, true);
  }
}

function setUpControl() {
  $("control-token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const token = $("control-token").value.trim();
    $("control-token").value = "";
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    controlSaid(token ? "Token kept for this tab." : "No token given.", !token);
  });
  $("control-forget").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    controlSaid("Token forgotten.");
  });
  for (const button of document.querySelectorAll("#control [data-command]")) {
    button.addEventListener("click", () => {
      const command = button.dataset.command;
      const golem = $("golem-id").textContent;
      if (command === "kill" && !window.confirm(`Kill ${golem}? It dies at its next tick, writing its testament; this cannot be undone.`)) {
        controlSaid("Kill cancelled.");
        return;
      }
      sendCommand(command);
    });
  }
  $("control-budget-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const value = Number($("control-budget").value);
    sendCommand("budget", { usd: value });
  });
}

// Shown only when the server has control routes (a token configured) and the golem lives.
function drawControl(status) {
  $("control").hidden = !(status.control && status.alive);
}

// --- the prediction engine's accuracy by category (when /status carries `oracle`) -------

const percent = (v) => (typeof v === "number" ? `${(100 * v).toFixed(1)}%` : "–");

function drawAccuracy(status) {
  const oracle = status.oracle;
  const categories = oracle && oracle.categories;
  const section = $("accuracy-section");
  section.hidden = !categories || typeof categories !== "object";
  if (section.hidden) return;
  const gate = oracle.gate || {};
  figures($("accuracy-figures"), [
    ["epistemic fitness", num(oracle.fitness)],
    ["regime", oracle.regime || "–"],
    ["trades gated", typeof gate.blocked === "number" ? `${gate.blocked} blocked, ${gate.permitted} let through` : "–"],
  ]);
  const rows = Object.entries(categories).map(([category, report]) => {
    const r = report || {};
    return el("tr", { "data-category": category },
      el("th", { scope: "row" }, category.replace(/_/g, " ")),
      el("td", {}, percent(r.hit_rate)),
      el("td", {}, typeof r.skill === "number" ? num(r.skill) : "–"),
      el("td", {}, typeof r.ece === "number" ? num(r.ece) : "–"),
      el("td", {}, typeof r.total === "number" ? String(r.total) : "–"));
  });
  $("accuracy").tBodies[0].replaceChildren(...rows);
}

// --- start -------------------------------------------------------------------------------

// The golem as /status has it now: the last point of each chart (readings are logged
// only when they are news, every ten minutes or at a change of phase).
function nowReading(status, history) {
  const portfolio = history.portfolio;
  const price = portfolio ? portfolio.marks[portfolio.config.asset] : null;
  return {
    time: status.time, tick: status.tick, vitality: status.vitality, phase: status.alive ? status.phase : "dead",
    economic: status.clocks.economic, epistemic: status.clocks.epistemic, credits_usd: status.credits_usd,
    burn_rate_usd: status.burn_rate_usd, equity_usd: status.equity_usd, price: price ?? null,
  };
}

let drawn = null; // the last history drawn, to draw again at a new width

async function refresh() {
  const [status, history] = await Promise.all([getJSON("/status"), getJSON("/history")]);
  drawStatus(status);
  drawControl(status);
  drawAccuracy(status);
  history.readings.push(nowReading(status, history));
  drawHistory(history);
  drawn = history;
  return status;
}

let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => drawn && drawHistory(drawn), 150);
});

// A decision's identity in the list: a model's has its id; a rule's, its tick and subsystem.
function decisionKey(d) {
  return JSON.stringify([d.id ?? null, d.tick, d.subsystem, d.time]);
}

// The stream is opened before the list is read, so that a decision made in between is not
// lost: what arrives early waits until the list is drawn, and what the list held is skipped.
function subscribe() {
  const events = new EventSource("/events");
  const early = [];
  let listed = null; // the keys the list was drawn with, once it is
  events.addEventListener("open", () => { document.body.dataset.stream = "open"; });
  events.addEventListener("decision", (message) => {
    const d = JSON.parse(message.data);
    if (listed === null) early.push(d);
    else if (!listed.has(decisionKey(d))) addDecision(d, true);
  });
  return (decisions) => {
    listed = new Set(decisions.map(decisionKey));
    early.forEach((d) => listed.has(decisionKey(d)) || addDecision(d, true));
  };
}

async function start() {
  setUpControl();
  let status;
  try {
    status = await refresh();
    const listedWith = status.recorded ? null : subscribe(); // a finished life: no stream
    const decisions = await getJSON(`/decisions?limit=${KEEP}`);
    decisions.forEach((d) => addDecision(d, false));
    if (listedWith) listedWith(decisions);
  } catch (error) {
    $("state").textContent = `cannot read the golem: ${error.message}`;
    return;
  }
  if (status.recorded) return;
  setInterval(() => refresh().catch((error) => {
    $("state").textContent = `cannot read the golem: ${error.message}`;
  }), REFRESH_MS);
}

start();
