// The ddsbind analysis board: renders what the server's /api answers; the rules and the solving are the server's.
// The position lives in the address (?board=2&room=closed&play=HJ,H2,HA, or ?deal=PBN), so it can be shared and reopened.
// An exported page (ddsbind board --export) carries every answer it needs in <script id="static-data">: no server.
// Hooks for tests and users' scripts: each card of the hand on turn carries data-card="HK" and, once solved,
// data-tricks="<n>" (DDS's score: the tricks its side takes from this position on if it plays that card) and
// data-shown (the number shown in the chosen display); <body data-play="HJ,H2" data-solved="HJ,H2"> says which
// position is shown and which one is solved; data-table and data-analysed that the DD table and costly cards are in.
"use strict";

const SEATS = ["N", "E", "S", "W"];
// The seat `steps` places clockwise of `seat` (N E S W): the one home of seat arithmetic on the page.
function seatAfter(seat, steps) { return SEATS[(SEATS.indexOf(seat) + steps) % 4]; }
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣", NT: "NT" };
const SUITS = ["S", "H", "D", "C"];
const FULL = { N: "North", E: "East", S: "South", W: "West" };
const $ = (id) => document.getElementById(id);
const STATIC = (() => {
  const el = document.getElementById("static-data");
  return el ? JSON.parse(el.textContent) : null;
})();

let query = readAddress();
let redo = [];          // cards taken back by Undo, last taken back last
let shown = null;       // the /api/position answer shown
let solved = null;      // the /api/solve answer for it
let analysis = null;    // the record's costly cards
let tableKey = null;    // the board whose DD table is shown
let analysisKey = null;
let generation = 0;     // answers for an older position are dropped
let boardList = [];     // /api/boards
let display = null;     // the numbers on the cards: "result", "declarer" or "side" (null: the default)
let hidden = new Set(); // hands hidden
let sdOpen = false;     // the single-dummy view is open
let sdFor = null;       // the position (address) it answers for
let sdGeneration = 0;   // single-dummy answers for an older request are dropped
let sdTimer = null;
let sdAnswer = null;    // the /api/single-dummy answer shown

function readAddress(search) {
  const p = new URLSearchParams(search === undefined ? location.search : search);
  const play = (p.get("play") || "").split(",").filter((c) => c);
  let declarer = p.get("declarer") || "";
  const leader = (p.get("leader") || "").toUpperCase();
  if (!declarer && SEATS.includes(leader)) declarer = seatAfter(leader, 3);
  return {
    board: p.get("board") || "", room: p.get("room") || "", table: p.get("table") || "",
    deal: p.get("deal") || "", dealer: p.get("dealer") || "",
    vulnerable: p.get("vulnerable") || p.get("vul") || "",
    strain: p.get("strain") || p.get("trump") || "", declarer: declarer,
    level: p.get("level") || "", doubled: p.get("doubled") || "",
    play: play, claim: p.get("claim") === "1",
  };
}

function boardParams(q) {
  const p = new URLSearchParams();
  if (q.deal) {
    p.set("deal", q.deal);
    if (q.dealer) p.set("dealer", q.dealer);
    if (q.vulnerable) p.set("vulnerable", q.vulnerable);
  } else {
    if (q.board) p.set("board", q.board);
    if (q.room) p.set("room", q.room);
    if (q.table) p.set("table", q.table);
  }
  return p;
}

function params(q, withPlay) {
  const p = boardParams(q);
  if (q.strain) p.set("strain", q.strain);
  if (q.declarer) p.set("leader", seatAfter(q.declarer, 1));
  if (q.level) p.set("level", q.level);
  if (q.doubled) p.set("doubled", q.doubled);
  if (withPlay && q.play.length) p.set("play", q.play.join(","));
  if (withPlay && q.claim) p.set("claim", "1");
  return p;
}

function address(q) {
  // Commas kept readable in the address bar: ?board=1&play=HJ,H2,HA
  return "?" + params(q, true).toString().replace(/%2C/g, ",");
}

function listed(q) {
  // The file's board an address names: its number, then its room or table (the first by default).
  if (!q.board) return boardList[0] || null;
  const same = boardList.filter((b) => String(b.number) === q.board);
  return same.find((b) => (!q.room || (b.room || "").toLowerCase() === q.room.toLowerCase()) &&
    (!q.table || String(b.table) === q.table)) || null;
}

function staticKey(path, q, withPlay) {
  const b = listed(q);
  const play = withPlay && q.play.length ? "&play=" + q.play.join(",") : "";
  return path + "?" + (b ? b.query : boardParams(q).toString()) + play;
}

async function api(path, q, withPlay, extra) {
  if (STATIC) {
    if (path === "boards") return STATIC.boards;
    const doc = STATIC.answers[staticKey(path, q, withPlay)];
    if (!doc) throw new Error("this exported page holds the records' own play only: go back, or open the board live");
    return doc;
  }
  const p = q ? params(q, withPlay) : new URLSearchParams();
  for (const [k, v] of Object.entries(extra || {})) p.set(k, v);
  const r = await fetch("/api/" + path + "?" + p.toString());
  let doc;
  try { doc = await r.json(); } catch (e) { throw new Error(`${path}: the server answered ${r.status}`); }
  if (!r.ok || (doc.error && path !== "boards")) throw new Error(doc.error || `${path}: the server answered ${r.status}`);
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

function sideOf(seat) { return "NS".includes(seat) ? "NS" : "EW"; }

// -- navigation -------------------------------------------------------------------------------

function setAddress(q, push) {
  try {
    if (push) history.pushState(null, "", address(q));
    else history.replaceState(null, "", address(q));
  } catch (e) { /* a page opened from disk may not rewrite its address: the position lives in memory */ }
}

function go(q, push) {
  query = q;
  setAddress(q, push);
  load();
}

function playCard(card) {
  if (query.claim) return;
  if (STATIC && !(onRecord() && recordPlay()[query.play.length] === card)) {
    $("status").textContent = "this exported page holds the record's own play only: open the board live to try other cards";
    return;
  }
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

function recordPlay() { return (shown && shown.board.record && shown.board.record.play) || []; }

function onRecord() {
  const rec = shown && shown.board.record;
  if (!rec) return false;
  return query.play.every((c, i) => rec.play[i] === c);
}

function ahead() {
  // The cards forward from here: the record's when the cards taken back are its own (or none were), else those.
  const taken = [...redo].reverse();
  const rest = onRecord() ? recordPlay().slice(query.play.length) : [];
  if (rest.length >= taken.length && taken.every((c, i) => rest[i] === c)) return rest;
  return taken;
}

function forward(n) {
  const more = ahead().slice(0, n);
  if (!more.length || query.claim) return;
  redo = redo.slice(0, Math.max(0, redo.length - more.length));
  go({ ...query, play: [...query.play, ...more] }, true);
}

function back(n) {
  if (query.claim) { go({ ...query, claim: false }, true); return; }
  const k = Math.max(0, query.play.length - n);
  if (k === query.play.length) return;
  redo = redo.concat(query.play.slice(k).reverse());
  go({ ...query, play: query.play.slice(0, k) }, true);
}

function toTrickEnd() { const n = query.play.length; forward(4 - (n % 4) || 4); }
function toTrickStart() { const n = query.play.length; back(n % 4 || 4); }

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

function bestCard() {
  if (!solved || !solved.cards.length || query.claim) return null;
  let best = solved.cards[0];
  for (const g of solved.cards) if (g.score > best.score) best = g;
  return best.card;
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
  const fault = doc.position.fault;
  $("fault").textContent = fault ? "The address's play stops here: " + fault : "";
  $("fault").hidden = !fault;
  if (fault) {
    // Played up to the bad card: the address says so from now on.
    query = { ...query, play: doc.position.play };
    setAddress(query, false);
    document.body.dataset.play = query.play.join(",");
  }
  shown = doc;
  solved = null;
  $("main").hidden = false;
  render();
  if (sdOpen) syncSd();
  const key = boardParams(query).toString();
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
    $("status").textContent = e.message;
  }
}

function finishSolved(mine) {
  if (mine !== generation) return;
  $("status").textContent = "";
  renderClaim();
  renderOutlook();
  document.body.dataset.solved = query.play.join(",");
  focusCard();
}

function focusCard() {
  // After each card the focus is on a legal card of the hand to play (the one focused before, if still legal).
  const active = document.activeElement;
  if (active && (active.tagName === "INPUT" || active.tagName === "SELECT" || active.tagName === "TEXTAREA")) return;
  const cards = [...document.querySelectorAll(".hand.on-turn .card.legal")];
  if (!cards.length) return;
  const again = active && active.dataset && cards.find((c) => c.dataset.card === active.dataset.card);
  const target = again || cards.find((c) => c.classList.contains("best")) || cards[0];
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: "nearest", inline: "nearest" });
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

function chosenDisplay() {
  if (display) return display;
  return shown && shown.contract && shown.contract.level ? "result" : "declarer";
}

function render() {
  const b = shown.board, p = shown.position, k = shown.contract;
  const rec = b.record;
  $("board-label").textContent = query.deal ? "Pasted deal" : "Board " + b.label;
  $("dealer").textContent = b.dealer || "?";
  $("vulnerable").textContent = b.vulnerable;
  $("deal-settings").hidden = !query.deal;
  $("dealer-line").hidden = $("vul-line").hidden = !!query.deal;
  if (query.deal) { $("dealer-pick").value = b.dealer || "N"; $("vul-pick").value = b.vulnerable === "Both" ? "All" : b.vulnerable; }
  $("trump").value = k.strain;
  $("declarer").value = k.declarer;
  $("level").value = String(k.level);
  $("doubled").value = String(k.doubled);
  $("contract").textContent = `${k.text.replace(/^(\d)(NT|[SHDC])/, (m, l, s) => l + SYMBOL[s])} by ${k.declarer}`;
  $("contract-source").textContent = { record: "(the record's)", par: "(par)", chosen: "" }[k.source] +
    (k.declarer_vulnerable ? " vulnerable" : " not vulnerable");
  $("display").value = chosenDisplay();
  if (!query.deal && $("boards").options.length) {
    const entry = listed(query);
    if (entry) $("boards").value = entry.query;
  }
  for (const seat of SEATS) renderHand(seat, p, rec, b);
  renderTrick(p);
  $("counts").replaceChildren();
  const line = (text) => { const d = document.createElement("div"); d.textContent = text; $("counts").append(d); };
  line(p.finished ? "All 13 tricks played" : `Trick ${p.trick_number} · ${p.to_play} to play`);
  const taken = document.createElement("div");
  taken.id = "taken";
  const declSide = sideOf(p.declarer), defSide = declSide === "NS" ? "EW" : "NS";
  taken.textContent = `Taken: ${declSide} ${p.declarer_tricks} · ${defSide} ${p.defence_tricks}`;
  $("counts").append(taken);
  $("outlook").textContent = "";
  delete $("outlook").dataset.declarer;
  $("claimed").textContent = "";
  renderTricks(p);
  renderRecord(rec, p);
  renderLegend();
  $("link").value = location.href;
  $("export-text").hidden = true;
  const more = ahead().length > 0;
  $("undo").disabled = $("start").disabled = $("prev-trick").disabled = !query.play.length && !query.claim;
  $("redo").disabled = !redo.length;
  $("next-trick").disabled = $("end").disabled = !more;
  $("next").hidden = !rec;
  $("next").disabled = !rec || !onRecord() || query.play.length >= rec.play.length;
  $("claim").disabled = p.finished || query.claim;
  $("best").disabled = true;
  if (p.finished) renderOutlook();
}

function renderHand(seat, p, rec, b) {
  const box = $("hand-" + seat);
  box.replaceChildren();
  delete box.dataset.solved;
  const onTurn = p.to_play === seat && !query.claim;
  box.classList.toggle("on-turn", onTurn);
  box.classList.toggle("vul", b.vulnerable_sides.includes(sideOf(seat)));
  const head = document.createElement("div");
  head.className = "seat";
  const players = rec ? rec.players : {};
  const full = FULL[seat];
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = full + (players[full] ? " · " + players[full] : "") + (p.declarer === seat ? " (declarer)" : "");
  head.append(who);
  const hcp = document.createElement("span");
  hcp.className = "hcp";
  hcp.textContent = `${b.hcp[seat]} HCP`;
  head.append(hcp);
  const hide = document.createElement("button");
  hide.type = "button";
  hide.className = "hide";
  hide.textContent = hidden.has(seat) ? "show" : "hide";
  hide.setAttribute("aria-label", (hidden.has(seat) ? "show " : "hide ") + full);
  hide.addEventListener("click", () => toggleHand(seat));
  head.append(hide);
  box.append(head);
  if (hidden.has(seat) && !onTurn) {
    const h = document.createElement("div");
    h.className = "hidden-cards";
    h.textContent = `${p.hands[seat].reduce((n, s) => n + s.length, 0)} cards hidden`;
    box.append(h);
    return;
  }
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
          s.setAttribute("role", "button");
          s.setAttribute("aria-label", "play " + SYMBOL[c[0]] + rankText(c));
          s.addEventListener("click", () => playCard(c));
          s.addEventListener("keydown", (ev) => {
            if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); playCard(c); }
          });
        }
        if (c === actual) s.classList.add("actual");
      }
      row.append(s);
    }
    box.append(row);
  });
}

function toggleHand(seat) {
  if (hidden.has(seat)) hidden.delete(seat); else hidden.add(seat);
  for (const box of document.querySelectorAll(".show-hand")) box.checked = !hidden.has(box.value);
  if (shown) { render(); if (solved) renderSolved(); renderClaim(); }
}

function renderTrick(p) {
  let cards = p.trick, leader = p.leader, last = false;
  if (!cards.length && p.tricks.length) {
    const t = p.tricks[p.tricks.length - 1];
    cards = t.cards; leader = t.leader; last = true;
  }
  for (const seat of SEATS) $("played-" + seat).replaceChildren();
  cards.forEach((c, i) => {
    const seat = seatAfter(leader, i);
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
  if (rec.play.length < 52 && rec.result !== null && rec.result !== undefined) {
    const li = document.createElement("li");
    li.className = "summary claim-shown";
    li.value = 0;
    li.textContent = `Then claimed: declarer ${rec.result} tricks in all`;
    if (here === rec.play.length) li.classList.add("here");
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
  let note = c ? `In the record ${c.seat} played ${c.card} here, which cost ${c.cost}; better: ${c.better.join(" ")}` : "";
  if (here === rec.play.length && rec.play.length < 52 && rec.result !== null && rec.result !== undefined) {
    note = `The record ends here with a claim: declarer ${rec.result} tricks in all.`;
  }
  $("note").textContent = note;
}

function declarerTotal(score) {
  // DDS's score is the tricks of the side to play from here on; declarer's tricks in all from it.
  const p = shown.position;
  const left = 13 - p.tricks.length;
  return p.declarer_tricks + (sideOf(p.to_play) === sideOf(p.declarer) ? score : left - score);
}

function shownNumber(score) {
  const how = chosenDisplay();
  if (how === "side") return String(score);
  const total = declarerTotal(score);
  if (how === "declarer") return String(total);
  const over = total - shown.contract.target;
  return over === 0 ? "=" : (over > 0 ? "+" : "") + over;
}

function renderLegend() {
  const k = shown.contract, p = shown.position;
  const name = `${k.text} by ${k.declarer}`;
  $("legend").textContent = {
    result: `Each card of the hand to play shows the result of ${name} if that card is played and both sides ` +
      "then play double dummy: = makes exactly, +1 one overtrick, -2 two down.",
    declarer: `Each card of the hand to play shows the tricks declarer (${k.declarer}) takes in all if that card ` +
      "is played and both sides then play double dummy.",
    side: `Each card of the hand to play shows the tricks its side${p.to_play ? " (" + sideOf(p.to_play) + ")" : ""} ` +
      "takes from this trick on if that card is played and both sides then play double dummy.",
  }[chosenDisplay()] + " Green: a best card; red: a card that costs.";
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
      const text = shownNumber(g.score);
      el.dataset.tricks = String(g.score);
      el.dataset.shown = text;
      el.dataset.group = String(k);
      el.classList.add(g.score === best ? "best" : "worse");
      const badge = document.createElement("sub");
      badge.className = "tricks";
      badge.textContent = text;
      el.append(badge);
      el.setAttribute("aria-label", `play ${SYMBOL[c[0]]}${rankText(c)}: ${text}`);
    }
  });
  box.dataset.solved = "1";
  $("best").disabled = !solved.cards.length || query.claim;
}

function resultWords(total) {
  const k = shown.contract;
  const over = total - k.target;
  const score = k.scores[total];
  const signed = (score > 0 ? "+" : "") + score;
  const contract = `${k.text} by ${k.declarer}`;
  if (over >= 0) return `${contract} makes${over ? ` with ${over} overtrick${over > 1 ? "s" : ""}` : ""} (${signed})`;
  return `${contract} goes ${-over} down (${signed})`;
}

function renderOutlook() {
  const p = shown.position;
  let total;
  if (p.finished) total = p.declarer_tricks;
  else if (solved && solved.cards.length) {
    let best = -1;
    for (const g of solved.cards) best = Math.max(best, g.score);
    total = declarerTotal(best);
  } else return;
  const lead = p.finished ? `Played out: declarer took ${total} trick${total === 1 ? "" : "s"}` :
    `Double dummy: declarer takes ${total} trick${total === 1 ? "" : "s"}`;
  $("outlook").textContent = `${lead}: ${resultWords(total)}`;
  $("outlook").dataset.declarer = String(total);
}

function renderClaim() {
  const p = shown.position;
  if (!query.claim) return;
  if (!solved || p.finished) return;
  let best = -1;
  for (const g of solved.cards) best = Math.max(best, g.score);
  const left = 13 - p.tricks.length;
  const sideOnTurn = sideOf(p.to_play);
  const other = sideOnTurn === "NS" ? "EW" : "NS";
  const decl = declarerTotal(best);
  $("claimed").textContent = `Claimed: ${sideOnTurn} ${best} and ${other} ${left - best} of the last ${left}; ` +
    `declarer ${decl} in all`;
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

// -- single dummy ---------------------------------------------------------------------------------
// The odds of each legal card from what the player to play sees: the server deals the hidden hands many times
// (ddsbind.single_dummy, a fixed seed) and solves each layout.  Rows carry data-card and data-makes for scripts;
// <body data-sd="HJ,H2"> says which position's answer is shown.

function toggleSd() {
  sdOpen = !sdOpen;
  $("sd").hidden = !sdOpen;
  $("sd-open").setAttribute("aria-expanded", String(sdOpen));
  if (!sdOpen) return;
  if (shown) syncSd();
  $("sd").scrollIntoView({ block: "nearest" });
  (STATIC ? $("sd-open") : $("sd-go")).focus({ preventScroll: true });
}

function syncSd() {
  // A new position: the hands its player really sees (the server's default), the first sample count.
  if (STATIC) return;
  const key = address(query);
  if (sdFor === key) return;
  sdFor = key;
  sdAnswer = null;
  $("sd-cards").replaceChildren();
  $("sd-caption").textContent = "";
  $("sd-legend").textContent = "";
  $("sd-more").hidden = true;
  const p = shown.position;
  for (const box of document.querySelectorAll(".sd-see")) box.disabled = box.value === p.to_play;
  if (p.finished || query.claim) {
    sdGeneration++;
    stopSdClock();
    $("sd-error").hidden = true;
    $("sd-status").textContent = p.finished ? "the play is over: no card to choose" : "the rest is claimed";
    return;
  }
  runSd(null, null);
}

function seenChosen() {
  return [...document.querySelectorAll(".sd-see")].filter((b) => b.checked || b.disabled).map((b) => b.value).join("");
}

function stopSdClock() {
  clearInterval(sdTimer);
  sdTimer = null;
  $("sd").removeAttribute("aria-busy");
}

async function runSd(see, samples) {
  if (STATIC || !shown) return;
  const mine = ++sdGeneration;
  const key = query.play.join(",");
  const extra = {};
  if (see) extra.see = see;
  if (samples) extra.samples = String(samples);
  delete document.body.dataset.sd;
  $("sd-error").hidden = true;
  $("sd").setAttribute("aria-busy", "true");
  const started = Date.now();
  const what = samples ? `${samples} layouts` : "the layouts";
  const tick = () => {
    $("sd-status").textContent = `dealing and solving ${what} of the hidden cards… ${Math.round((Date.now() - started) / 1000)} s`;
  };
  clearInterval(sdTimer);
  tick();
  sdTimer = setInterval(tick, 1000);
  try {
    const doc = await api("single-dummy", query, true, extra);
    if (mine !== sdGeneration) return;
    stopSdClock();
    $("sd-status").textContent = "";
    renderSd(doc);
    document.body.dataset.sd = key;
  } catch (e) {
    if (mine !== sdGeneration) return;
    stopSdClock();
    $("sd-status").textContent = "";
    $("sd-error").textContent = e.message;
    $("sd-error").hidden = false;
  }
}

function percent(x) { return (100 * x).toFixed(1); }
function points(x) { const v = 100 * x; return (v > 0.05 ? "+" : v < -0.05 ? "−" : "") + Math.abs(v).toFixed(1); }

function renderSd(doc) {
  sdAnswer = doc;
  for (const box of document.querySelectorAll(".sd-see")) {
    box.checked = doc.see.includes(box.value);
    box.disabled = box.value === doc.to_play;
  }
  const how = doc.exact ? `all ${doc.samples} layouts (exact)` : `${doc.samples} layouts, seed ${doc.seed}`;
  $("sd-caption").textContent = `${doc.to_play} to play, seeing ${doc.see.join(" ")} · ${how}`;
  const list = $("sd-cards");
  list.replaceChildren();
  const best = doc.declaring ? Math.max(...doc.cards.map((c) => c.makes)) : Math.min(...doc.cards.map((c) => c.makes));
  const listed = new Set();
  const level = Math.round(100 * doc.confidence);
  for (const c of doc.cards) {
    if (listed.has(c.card)) continue;
    for (const x of [c.card, ...c.equals]) listed.add(x);
    const li = document.createElement("li");
    li.className = "sd-row " + (c.makes === best ? "best" : "worse");
    li.dataset.card = c.card;
    li.dataset.makes = String(c.makes);
    li.dataset.vsBest = String(c.vs_best);
    const names = document.createElement("span");
    names.className = "sd-cards";
    [c.card, ...c.equals].forEach((x, i) => { if (i) names.append(document.createTextNode(" ")); names.append(cardLabel(x)); });
    const bar = document.createElement("div");
    bar.className = "sd-bar";
    bar.setAttribute("role", "img");
    const [low, high] = c.makes_ci;
    bar.setAttribute("aria-label", `makes ${percent(c.makes)}%` + (doc.exact ? "" : `, ${level}% interval ${percent(low)} to ${percent(high)}`));
    const fill = document.createElement("div");
    fill.className = "sd-fill";
    fill.style.width = percent(c.makes) + "%";
    bar.append(fill);
    if (!doc.exact && low !== null && high !== null) {
      const ci = document.createElement("div");
      ci.className = "sd-ci";
      ci.style.left = percent(low) + "%";
      ci.style.width = (100 * (high - low)).toFixed(1) + "%";
      bar.append(ci);
    }
    const text = document.createElement("div");
    text.className = "sd-text";
    const interval = (lo, hi, f) => (doc.exact || lo === null ? "" : ` [${f(lo)}, ${f(hi)}]`);
    text.append(document.createTextNode(`makes ${percent(c.makes)}%${interval(low, high, percent)} · `));
    const diff = document.createElement("span");
    diff.className = "sd-diff";
    diff.textContent = c.makes === best ? "best" :
      `${points(c.vs_best)} pts vs best${interval(c.vs_best_ci[0], c.vs_best_ci[1], points)}`;
    text.append(diff);
    li.append(names, bar, text);
    list.append(li);
  }
  const side = doc.declaring ? "declarer's side" : "the defence";
  $("sd-legend").textContent = `Each row: a card of ${doc.to_play}'s (with those equal to it) and how often ${doc.contract} ` +
    "makes after it, over layouts of the hidden hands that fit what is seen and played, each solved double dummy" +
    (doc.exact ? "; every layout was solved, so the figures are exact" : `; the line across the bar is the ${level}% interval`) +
    `. Then its difference in percentage points (pts) from the best card for ${side}, on the same layouts.`;
  $("sd-more").hidden = !doc.more;
  if (doc.more) $("sd-more").textContent = `More samples (${doc.more})`;
}

// -- sharing ----------------------------------------------------------------------------------

async function copyLink() {
  const link = $("link");
  link.value = location.href;
  link.select();
  try {
    await navigator.clipboard.writeText(location.href);
    $("status").textContent = "link copied";
  } catch (e) {
    $("status").textContent = document.execCommand && document.execCommand("copy") ? "link copied" :
      "select the address above and copy it";
  }
}

async function exportAs(kind) {
  const box = $("export-text");
  try {
    const doc = await api("export", query, true);
    box.value = doc[kind];
    box.hidden = false;
    box.dataset.kind = kind;
    box.select();
  } catch (e) {
    $("status").textContent = e.message;
  }
}

// -- keys -------------------------------------------------------------------------------------

function onKey(ev) {
  const t = ev.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey || !shown) return;
  const keys = {
    ArrowLeft: () => (ev.shiftKey ? toTrickStart() : back(1)),
    ArrowRight: () => (ev.shiftKey ? toTrickEnd() : forward(1)),
    u: () => undo(), r: () => forward(1), b: () => { const c = bestCard(); if (c) playCard(c); },
    s: () => toggleSd(),
    Home: () => back(query.play.length),
    End: () => forward(52),
  };
  const f = keys[ev.key];
  if (!f) return;
  ev.preventDefault();
  f();
}

// -- start --------------------------------------------------------------------------------------

function choose(change) {
  redo = [];
  go({ ...query, ...change, play: [], claim: false }, true);
}

async function start() {
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", () => forward(1));
  $("next").addEventListener("click", nextRecordCard);
  $("start").addEventListener("click", () => back(query.play.length));
  $("end").addEventListener("click", () => forward(52));
  $("prev-trick").addEventListener("click", toTrickStart);
  $("next-trick").addEventListener("click", toTrickEnd);
  $("best").addEventListener("click", () => { const c = bestCard(); if (c) playCard(c); });
  $("claim").addEventListener("click", () => { if (solved) go({ ...query, claim: true }, true); });
  const contract = () => ({ strain: $("trump").value, declarer: $("declarer").value, level: $("level").value,
    doubled: $("doubled").value === "0" ? "" : $("doubled").value });
  for (const id of ["trump", "declarer", "level", "doubled"]) $(id).addEventListener("change", () => choose(contract()));
  $("dealer-pick").addEventListener("change", () => choose({ dealer: $("dealer-pick").value }));
  $("vul-pick").addEventListener("change", () => choose({ vulnerable: $("vul-pick").value }));
  $("display").addEventListener("change", () => {
    display = $("display").value;
    if (!shown) return;
    render();
    if (solved) { renderSolved(); renderOutlook(); renderClaim(); }
  });
  for (const box of document.querySelectorAll(".show-hand")) {
    box.addEventListener("change", () => toggleHand(box.value));
  }
  $("boards").addEventListener("change", () => {
    redo = [];
    go({ ...readAddress("?" + $("boards").value), play: [] }, true);
  });
  $("sd-open").addEventListener("click", toggleSd);
  $("sd-go").addEventListener("click", () => runSd(seenChosen(), null));
  $("sd-more").addEventListener("click", () => { if (sdAnswer && sdAnswer.more) runSd(sdAnswer.see.join(""), sdAnswer.more); });
  $("copy").addEventListener("click", copyLink);
  for (const kind of ["handviewer", "lin", "pbn"]) $("export-" + kind).addEventListener("click", () => exportAs(kind));
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", () => { query = readAddress(); redo = []; load(); });
  $("deal-input").value = query.deal;
  if (STATIC) {
    // No server: the page plays the records as exported; nothing can be pasted or chosen.
    $("paste").hidden = true;
    $("chooser").hidden = true;
    $("export-row").hidden = true;
    $("best").hidden = true;
    $("sd-static").hidden = false;
    $("sd-controls").hidden = true;
    document.body.dataset.static = "1";
  }
  let list;
  try {
    list = await api("boards", null, false);
  } catch (e) {
    showError("the board's server does not answer");
    return;
  }
  boardList = list.boards;
  const more = list.count > list.boards.length ? ` · ${list.count} boards, the first ${list.boards.length} listed` +
    " (any other opens by its address, ?board=N)" : "";
  $("source").textContent = (list.source || "") + more;
  if (list.boards.length) {
    for (const b of list.boards) {
      const o = document.createElement("option");
      o.value = b.query;
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
