// The ddsbind analysis board: renders what the server's /api answers; the rules and the solving are the server's.
// The position lives in the address (?board=2&play=HJ,H2,HA, or ?deal=PBN), so it can be shared and reopened.
// Hooks for tests and users' scripts: each card of the hand on turn carries data-card="HK" and, once solved,
// data-tricks="<n>" (DDS's score: the tricks its side takes from this position on if it plays that card);
// <body data-play="HJ,H2" data-solved="HJ,H2"> says which position is shown and which one is solved;
// data-table and data-analysed that the DD table and the record's costly cards are in.
"use strict";

const SEATS = ["N", "E", "S", "W"];
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣", NT: "NT" };
const SUITS = ["S", "H", "D", "C"];
const $ = (id) => document.getElementById(id);

let query = readAddress();
let redo = [];          // cards taken back by Undo, last taken back last
let shown = null;       // the /api/position answer shown
let solved = null;      // the /api/solve answer for it
let analysis = null;    // the record's costly cards
let tableKey = null;    // the board whose DD table is shown
let analysisKey = null;
let generation = 0;     // answers for an older position are dropped

function readAddress() {
  const p = new URLSearchParams(location.search);
  const play = (p.get("play") || "").split(",").filter((c) => c);
  return {
    board: p.get("board") || "", deal: p.get("deal") || "", trump: p.get("trump") || "",
    declarer: p.get("declarer") || "", play: play, claim: p.get("claim") === "1",
  };
}

function params(q, withPlay) {
  const p = new URLSearchParams();
  if (q.deal) p.set("deal", q.deal); else if (q.board) p.set("board", q.board);
  if (q.trump) p.set("trump", q.trump);
  if (q.declarer) p.set("declarer", q.declarer);
  if (withPlay && q.play.length) p.set("play", q.play.join(","));
  if (withPlay && q.claim) p.set("claim", "1");
  return p;
}

function address(q) {
  // Commas kept readable in the address bar: ?board=1&play=HJ,H2,HA
  return "?" + params(q, true).toString().replace(/%2C/g, ",");
}

async function api(path, q, withPlay) {
  const r = await fetch("/api/" + path + "?" + params(q, withPlay).toString());
  let doc;
  try { doc = await r.json(); } catch (e) { throw new Error(`${path}: the server answered ${r.status}`); }
  if (!r.ok || doc.error) throw new Error(doc.error || `${path}: the server answered ${r.status}`);
  return doc;
}

function showError(message) {
  const e = $("error");
  e.textContent = message;
  e.hidden = !message;
}

function rankText(card) { return card[1] === "T" ? "10" : card.slice(1); }

function cardSpan(card, cls) {
  const s = document.createElement("span");
  s.className = "card " + (cls || "");
  s.textContent = rankText(card);
  return s;
}

function suitMark(suit) {
  const s = document.createElement("span");
  s.className = "suit suit-" + suit;
  s.textContent = SYMBOL[suit];
  return s;
}

function cardLabel(card) {
  const s = document.createElement("span");
  s.className = "cardname suit-" + card[0];
  s.textContent = SYMBOL[card[0]] + rankText(card);
  return s;
}

// -- navigation -------------------------------------------------------------------------------

function go(q, push) {
  query = q;
  if (push) history.pushState(null, "", address(q));
  else history.replaceState(null, "", address(q));
  load();
}

function playCard(card) {
  if (query.claim) return;
  const q = { ...query, play: [...query.play, card] };
  if (redo.length && redo[redo.length - 1] === card) redo.pop(); else redo = [];
  go(q, true);
}

function undo() {
  if (query.claim) { go({ ...query, claim: false }, true); return; }
  if (!query.play.length) return;
  redo.push(query.play[query.play.length - 1]);
  go({ ...query, play: query.play.slice(0, -1) }, true);
}

function redoCard() {
  if (redo.length) go({ ...query, play: [...query.play, redo.pop()] }, true);
}

function onRecord() {
  const rec = shown && shown.board.record;
  if (!rec) return false;
  return query.play.every((c, i) => rec.play[i] === c);
}

function nextRecordCard() {
  const rec = shown && shown.board.record;
  if (!rec || !onRecord() || query.play.length >= rec.play.length) return;
  redo = [];
  go({ ...query, claim: false, play: rec.play.slice(0, query.play.length + 1) }, true);
}

function jump(play) {
  redo = [];
  go({ ...query, claim: false, play: play }, true);
}

// -- loading ----------------------------------------------------------------------------------

async function load() {
  const mine = ++generation;
  document.body.dataset.play = query.play.join(",");
  delete document.body.dataset.solved;
  $("status").textContent = "";
  let doc;
  try {
    doc = await api("position", query, true);
  } catch (e) {
    if (mine !== generation) return;
    showError(e.message);
    $("main").hidden = true;
    document.body.dataset.failed = "1";
    return;
  }
  if (mine !== generation) return;
  delete document.body.dataset.failed;
  showError("");
  shown = doc;
  solved = null;
  $("main").hidden = false;
  render();
  const key = query.deal ? "deal:" + query.deal : "board:" + (query.board || "1");
  if (tableKey !== key) { tableKey = key; loadTable(key); }
  if (analysisKey !== key) {
    analysisKey = key; analysis = null; delete document.body.dataset.analysed; loadAnalysis(key);
  }
  if (doc.position.finished) { finishSolved(mine); return; }
  $("status").textContent = "solving…";
  try {
    const s = await api("solve", query, true);
    if (mine !== generation) return;
    solved = s;
    renderSolved();
    finishSolved(mine);
  } catch (e) {
    if (mine !== generation) return;
    $("status").textContent = "";
    showError(e.message);
  }
}

function finishSolved(mine) {
  if (mine !== generation) return;
  $("status").textContent = "";
  renderClaim();
  document.body.dataset.solved = query.play.join(",");
}

async function loadTable(key) {
  delete document.body.dataset.table;
  $("dd-table").replaceChildren();
  $("par").textContent = "solving the table…";
  try {
    const t = await api("table", query, false);
    if (tableKey !== key) return;
    renderTable(t);
  } catch (e) {
    if (tableKey === key) $("par").textContent = e.message;
  }
}

async function loadAnalysis(key) {
  try {
    const a = await api("analysis", query, false);
    if (analysisKey !== key) return;
    analysis = a;
    renderRecordPlay();
    document.body.dataset.analysed = "1";
  } catch (e) {
    if (analysisKey === key) $("status").textContent = e.message;
  }
}

// -- drawing ----------------------------------------------------------------------------------

function render() {
  const b = shown.board, p = shown.position;
  const rec = b.record;
  $("board-label").textContent = "Board " + b.label;
  $("dealer").textContent = b.dealer || "?";
  $("vulnerable").textContent = b.vulnerable;
  $("trump").value = p.trump;
  $("declarer").value = p.declarer;
  if (query.deal) $("boards").selectedIndex = -1;
  else if ($("boards").options.length) $("boards").value = String(b.number);
  for (const seat of SEATS) renderHand(seat, p, rec);
  renderTrick(p);
  const declSide = "NS".includes(p.declarer) ? "NS" : "EW";
  const defSide = declSide === "NS" ? "EW" : "NS";
  $("counts").replaceChildren();
  const line = (text) => { const d = document.createElement("div"); d.textContent = text; $("counts").append(d); };
  line(p.finished ? "All 13 tricks played" : `Trick ${p.trick_number} · ${p.to_play} to play`);
  const taken = document.createElement("div");
  taken.id = "taken";
  taken.textContent = `Taken: ${declSide} ${p.declarer_tricks} · ${defSide} ${p.defence_tricks}`;
  $("counts").append(taken);
  $("outlook").textContent = "";
  $("claimed").textContent = "";
  renderTricks(p);
  renderRecord(rec, p);
  $("undo").disabled = !query.play.length && !query.claim;
  $("redo").disabled = !redo.length;
  $("next").hidden = !rec;
  $("next").disabled = !rec || !onRecord() || query.play.length >= rec.play.length;
  $("claim").disabled = p.finished || query.claim;
}

function renderHand(seat, p, rec) {
  const box = $("hand-" + seat);
  box.replaceChildren();
  delete box.dataset.solved;
  const onTurn = p.to_play === seat && !query.claim;
  box.classList.toggle("on-turn", onTurn);
  const head = document.createElement("div");
  head.className = "seat";
  const players = rec ? rec.players : {};
  const full = { N: "North", E: "East", S: "South", W: "West" }[seat];
  head.textContent = full + (players[full] ? " · " + players[full] : "") + (p.declarer === seat ? " (declarer)" : "");
  box.append(head);
  const legal = new Set(p.legal);
  const actual = rec && onRecord() ? rec.play[query.play.length] : null;
  p.hands[seat].forEach((cards, k) => {
    const row = document.createElement("div");
    row.className = "suit-row";
    row.append(suitMark(SUITS[k]));
    if (!cards.length) { const v = document.createElement("span"); v.className = "void"; v.textContent = "—"; row.append(v); }
    for (const c of cards) {
      const s = cardSpan(c, "suit-" + c[0]);
      if (onTurn) {
        s.dataset.card = c;
        if (legal.has(c)) {
          s.classList.add("legal");
          s.tabIndex = 0;
          s.title = "play " + SYMBOL[c[0]] + rankText(c);
          s.addEventListener("click", () => playCard(c));
          s.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") playCard(c); });
        }
        if (c === actual) s.classList.add("actual");
      }
      row.append(s);
    }
    box.append(row);
  });
}

function renderTrick(p) {
  let cards = p.trick, leader = p.leader, last = false;
  if (!cards.length && p.tricks.length) {
    const t = p.tricks[p.tricks.length - 1];
    cards = t.cards; leader = t.leader; last = true;
  }
  for (const seat of SEATS) $("played-" + seat).replaceChildren();
  const start = SEATS.indexOf(leader);
  cards.forEach((c, i) => {
    const seat = SEATS[(start + i) % 4];
    const s = cardLabel(c);
    s.classList.add("on-table");
    if (last) s.classList.add("last-trick");
    $("played-" + seat).append(s);
  });
  $("trick-no").textContent = last ? `trick ${p.tricks.length}` : "";
}

function renderTricks(p) {
  const list = $("tricks");
  list.replaceChildren();
  const all = p.tricks.map((t) => ({ ...t, done: true }));
  if (p.trick.length) all.push({ number: p.trick_number, leader: p.leader, cards: p.trick, winner: null });
  if (!all.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = "none played yet";
    list.append(li);
  }
  all.forEach((t, i) => {
    const li = document.createElement("li");
    li.className = "trick";
    li.dataset.trick = String(i + 1);
    li.title = "back to the start of this trick";
    li.append(document.createTextNode(t.leader + ": "));
    for (const c of t.cards) { li.append(cardLabel(c), document.createTextNode(" ")); }
    if (t.winner) li.append(document.createTextNode("→ " + t.winner));
    li.addEventListener("click", () => jump(query.play.slice(0, 4 * i)));
    list.append(li);
  });
}

function renderRecord(rec, p) {
  $("record").hidden = !rec;
  if (!rec) return;
  let words = rec.contract ? `${rec.contract}${rec.declarer ? " by " + rec.declarer : ""}` : "no contract";
  if (rec.result !== null && rec.result !== undefined) words += `, ${rec.result} tricks`;
  $("record-contract").textContent = words;
  const table = $("auction");
  table.replaceChildren();
  const head = table.insertRow();
  for (const s of ["W", "N", "E", "S"]) { const th = document.createElement("th"); th.textContent = s; head.append(th); }
  const dealer = shown.board.dealer || "N";
  let row = table.insertRow();
  for (let i = 0; i < ["W", "N", "E", "S"].indexOf(dealer); i++) row.insertCell();
  for (const call of rec.auction) {
    if (row.cells.length === 4) row = table.insertRow();
    const cell = row.insertCell();
    const m = /^(\d)(NT|[SHDC])$/.exec(call);
    if (m) { cell.append(document.createTextNode(m[1])); const s = suitMark(m[2]); cell.append(s); }
    else cell.textContent = call;
  }
  renderRecordPlay();
}

function renderRecordPlay() {
  const rec = shown && shown.board.record;
  const list = $("record-play");
  list.replaceChildren();
  $("note").textContent = "";
  if (!rec) return;
  const costly = new Map();
  if (analysis) for (const c of analysis.costly) costly.set(c.index, c);
  const here = onRecord() ? query.play.length : -1;
  for (let t = 0; t * 4 < rec.play.length; t++) {
    const li = document.createElement("li");
    for (let i = 4 * t; i < Math.min(4 * t + 4, rec.play.length); i++) {
      const s = cardLabel(rec.play[i]);
      s.classList.add("rcard");
      s.dataset.index = String(i);
      if (i < here) s.classList.add("done");
      if (i === here) s.classList.add("here");
      const c = costly.get(i);
      if (c) {
        s.classList.add("costly");
        s.title = `${c.seat} played ${c.card}: cost ${c.cost} trick${c.cost > 1 ? "s" : ""}; better: ${c.better.join(" ")}`;
        s.dataset.cost = String(c.cost);
      } else s.title = "go to the position before this card";
      s.addEventListener("click", () => jump(rec.play.slice(0, i)));
      li.append(s, document.createTextNode(" "));
    }
    list.append(li);
  }
  if (analysis && analysis.trace) {
    const li = document.createElement("li");
    li.className = "summary";
    li.value = 0;
    const n = analysis.costly.length;
    li.textContent = `Double dummy before the lead: ${analysis.trace[0]} tricks for declarer; ` +
      (n ? `${n} costly card${n > 1 ? "s" : ""} (red)` : "no card cost a trick");
    list.prepend(li);
  }
  const c = here >= 0 ? costly.get(here) : undefined;
  $("note").textContent = c ? `In the record ${c.seat} played ${c.card} here, which cost ${c.cost}; ` +
    `better: ${c.better.join(" ")}` : "";
}

function renderSolved() {
  const p = shown.position;
  const box = $("hand-" + p.to_play);
  let best = -1;
  for (const g of solved.cards) best = Math.max(best, g.score);
  solved.cards.forEach((g, k) => {
    for (const c of [g.card, ...g.equals]) {
      const el = box.querySelector(`[data-card="${c}"]`);
      if (!el) continue;
      el.dataset.tricks = String(g.score);
      el.dataset.group = String(k);
      el.classList.add(g.score === best ? "best" : "worse");
      const badge = document.createElement("sub");
      badge.className = "tricks";
      badge.textContent = String(g.score);
      el.append(badge);
      el.title = `${SYMBOL[c[0]]}${rankText(c)}: ${g.score} trick${g.score === 1 ? "" : "s"} for ${p.to_play}'s side` +
        (g.equals.length || c !== g.card ? ` (equal: ${[g.card, ...g.equals].map(rankText).join(" ")})` : "");
    }
  });
  box.dataset.solved = "1";
  const sideOnTurn = "NS".includes(p.to_play) ? "NS" : "EW";
  const declSide = "NS".includes(p.declarer) ? "NS" : "EW";
  const left = 13 - p.tricks.length;
  const decl = p.declarer_tricks + (sideOnTurn === declSide ? best : left - best);
  $("outlook").textContent = `Double dummy: declarer ${decl} trick${decl === 1 ? "" : "s"} in all`;
  $("outlook").dataset.declarer = String(decl);
}

function renderClaim() {
  const p = shown.position;
  if (!query.claim) return;
  if (!solved || p.finished) return;
  let best = -1;
  for (const g of solved.cards) best = Math.max(best, g.score);
  const left = 13 - p.tricks.length;
  const sideOnTurn = "NS".includes(p.to_play) ? "NS" : "EW";
  const other = sideOnTurn === "NS" ? "EW" : "NS";
  const declSide = "NS".includes(p.declarer) ? "NS" : "EW";
  const decl = p.declarer_tricks + (sideOnTurn === declSide ? best : left - best);
  $("claimed").textContent = `Claimed: ${sideOnTurn} ${best} and ${other} ${left - best} of the last ${left}; declarer ${decl} in all`;
  $("claimed").dataset.declarer = String(decl);
  for (const el of document.querySelectorAll(".card.legal")) el.classList.add("claimed");
}

function renderTable(t) {
  const table = $("dd-table");
  table.replaceChildren();
  const head = table.insertRow();
  head.append(document.createElement("th"));
  for (const s of ["NT", "S", "H", "D", "C"]) {
    const th = document.createElement("th");
    th.append(s === "NT" ? document.createTextNode("NT") : suitMark(s));
    head.append(th);
  }
  for (const seat of SEATS) {
    const row = table.insertRow();
    const th = document.createElement("th");
    th.textContent = seat;
    row.append(th);
    for (const s of ["NT", "S", "H", "D", "C"]) {
      const cell = row.insertCell();
      cell.textContent = String(t.table[s][seat]);
      cell.dataset.strain = s;
      cell.dataset.seat = seat;
    }
  }
  $("par").textContent = "Par: " + t.par;
  document.body.dataset.table = "1";
}

// -- start --------------------------------------------------------------------------------------

async function start() {
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redoCard);
  $("next").addEventListener("click", nextRecordCard);
  $("start").addEventListener("click", () => jump([]));
  $("claim").addEventListener("click", () => { if (solved) go({ ...query, claim: true }, true); });
  $("trump").addEventListener("change", () => { redo = []; go({ ...query, trump: $("trump").value, play: [], claim: false }, true); });
  $("declarer").addEventListener("change", () => { redo = []; go({ ...query, declarer: $("declarer").value, play: [], claim: false }, true); });
  $("boards").addEventListener("change", () => {
    redo = [];
    go({ board: $("boards").value, deal: "", trump: "", declarer: "", play: [], claim: false }, true);
  });
  window.addEventListener("popstate", () => { query = readAddress(); redo = []; load(); });
  $("deal-input").value = query.deal;
  let list;
  try {
    list = await (await fetch("/api/boards")).json();
  } catch (e) {
    showError("the board's server does not answer");
    return;
  }
  $("source").textContent = list.source || "";
  if (list.boards.length) {
    for (const b of list.boards) {
      const o = document.createElement("option");
      o.value = String(b.number);
      o.textContent = b.label + (b.contract ? ` · ${b.contract}${b.declarer ? " " + b.declarer : ""}` : "");
      $("boards").append(o);
    }
    $("board-pick").hidden = list.boards.length < 2;
  }
  if (list.error && !query.deal) { showError(list.error); document.body.dataset.failed = "1"; return; }
  if (!list.boards.length && !query.deal) {
    $("deal-input").focus();
    $("welcome").hidden = false;
    document.body.dataset.ready = "paste";
    return;
  }
  load();
}

document.addEventListener("DOMContentLoaded", start);
