// Jotto in the browser: this page only shows what the server says and sends what you type or
// click; every rule of the game (replies, what a guess may be, who wins) is the server's.
"use strict";

const $ = (id) => document.getElementById(id);
const KEY = "jotto.game";
const SVG = "http://www.w3.org/2000/svg";
let game = null;      // {id, state, options}
let busy = false;
let reviewed = null;  // the id of the game whose review is shown (or on its way)

function el(tag, text, attrs) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(method, path, body) {
  const init = {method, headers: {}};
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new Error("The server cannot be reached (is jotto serve still running?).");
  }
  const data = await response.json().catch(() => ({error: "The server's answer was not JSON."}));
  if (!response.ok) {
    const err = new Error(data.error || ("Error " + response.status));
    err.status = response.status;
    throw err;
  }
  return data;
}

function setupValues() {
  return {mode: $("mode").value, level: $("level").value, words: $("words").value,
          length: Number($("length").value), rules: $("rules").value, hints: $("hints").checked};
}

async function start(options, again) {
  if (busy) return;
  busy = true;
  showError("");
  try {
    const data = await api("POST", "/api/games", Object.assign({}, options, {again: !!again}));
    localStorage.setItem(KEY, data.id);
    $("lines").textContent = "";
    $("review").textContent = "";
    render(data, true);
  } catch (e) {
    showError(e.message);
  } finally {
    busy = false;
  }
}

async function move(body) {
  if (busy || !game) return false;
  busy = true;
  showError("");
  try {
    const data = await api("POST", "/api/games/" + encodeURIComponent(game.id) + "/moves", body);
    render(data, false);
    return true;
  } catch (e) {
    showError(e.message);
    if (e.status === 404) forget();
    return false;
  } finally {
    busy = false;
  }
}

function forget() {
  localStorage.removeItem(KEY);
  game = null;
  $("game").hidden = true;
  $("setup").hidden = false;
}

function addLines(lines, replace) {
  const list = $("lines");
  if (replace) list.textContent = "";
  for (const line of lines) list.appendChild(el("li", line));
  list.scrollTop = list.scrollHeight;
}

const QUESTIONS = {
  guess: (s) => "Your turn: guess my " + s.words.length + "-letter word.",
  answer: (s) => "My guess is " + s.my_guess.toUpperCase() + ": how many letters does it share with your word?",
  word: () => "The game is over. What was your word? I will check your answers.",
  entry: () => "Enter a guess made in your game and the reply it got.",
  none: () => "The game is over.",
};
const OUTCOMES = {won: "You win!", lost: "I win.", draw: "A draw.", "gave up": "You gave up.",
                  found: "I found your word."};

function render(data, replace) {
  game = {id: data.id, state: data.state, options: data.options};
  const s = data.state;
  $("setup").hidden = true;
  $("game").hidden = false;
  addLines(data.lines, replace);
  $("question").textContent = QUESTIONS[s.asks](s);
  $("guess-form").hidden = s.asks !== "guess";
  $("answer-panel").hidden = s.asks !== "answer";
  $("word-form").hidden = s.asks !== "word";
  $("entry-form").hidden = s.asks !== "entry";
  $("give-up").hidden = !(s.asks === "guess" || s.asks === "answer");
  if (s.asks === "answer") showAnswer(s);
  renderSheet($("your-sheet"), s.yours, s.mode === "assist" ? "The sheet" : "Your guesses");
  renderSheet($("my-sheet"), s.mine, "My guesses");
  if (s.mine && s.my_candidates !== null && !s.over) {
    $("my-sheet").querySelector(".fitting").textContent =
      s.my_candidates + " word" + (s.my_candidates === 1 ? "" : "s") + " of my list fit your answers.";
  }
  if (s.mode === "assist" && s.my_guess) {
    $("your-sheet").querySelector(".fitting").textContent +=
      " Suggested guess: " + s.my_guess + ".";
  }
  renderAlphabet(s.yours);
  const end = $("end");
  end.hidden = !s.over;
  if (s.over) {
    $("outcome").textContent = (OUTCOMES[s.outcome] || "") + " My word was " +
      (s.my_word ? s.my_word.toUpperCase() : "-") + ".";
    if (reviewed !== data.id) {
      reviewed = data.id;
      loadReview();
    }
    loadStats();
  }
  const focus = {guess: "guess-word", word: "word-text", entry: "entry-word"}[s.asks];
  if (focus && document.activeElement && document.activeElement.closest &&
      !document.activeElement.closest("#alphabet")) $(focus).focus();
}

function showAnswer(s) {
  $("my-guess").textContent = s.my_guess.toUpperCase();
  const box = $("answer-buttons");
  box.textContent = "";
  $("answer-form").hidden = !s.words.positional;
  if (s.words.positional) return;
  for (let k = 0; k <= s.words.length; k++) {
    const b = el("button", k, {type: "button", "data-reply": String(k),
                                "aria-label": "Answer " + k});
    b.addEventListener("click", () => move({move: "answer", reply: String(k)}));
    box.appendChild(b);
  }
}

function renderSheet(box, sheet, title) {
  box.hidden = !sheet;
  if (!sheet) return;
  box.querySelector("h2").textContent = title;
  const body = box.querySelector("tbody");
  body.textContent = "";
  sheet.rows.forEach((row, k) => {
    const tr = el("tr");
    tr.appendChild(el("td", k + 1));
    tr.appendChild(el("td", row.guess, {class: "word"}));
    tr.appendChild(el("td", row.shown));
    body.appendChild(tr);
  });
  let fit = "";
  if (sheet.present === null) fit = "No set of letters fits all these replies.";
  else if (sheet.fitting !== null) fit = sheet.fitting + " word" + (sheet.fitting === 1 ? "" : "s") + " fit.";
  box.querySelector(".fitting").textContent = fit;
}

const NEXT_MARK = {none: "in", in: "out", out: "clear"};

function renderAlphabet(sheet) {
  const box = $("alphabet");
  $("alphabet-box").hidden = !sheet;
  if (!sheet) return;
  if (!box.hasChildNodes()) {
    for (const c of "abcdefghijklmnopqrstuvwxyz") {
      const b = el("button", c, {type: "button", "data-letter": c, tabindex: c === "a" ? "0" : "-1"});
      b.addEventListener("click", () => cycleMark(c));
      box.appendChild(b);
    }
  }
  for (const b of box.children) {
    const c = b.dataset.letter;
    const mark = sheet.marks[c] || "none";
    b.dataset.mark = mark;
    b.classList.toggle("proved-in", !!sheet.present && sheet.present.includes(c));
    b.classList.toggle("proved-out", !!sheet.absent && sheet.absent.includes(c));
    const proved = b.classList.contains("proved-in") ? ", proved in" :
                   b.classList.contains("proved-out") ? ", proved out" : "";
    b.setAttribute("aria-label", c.toUpperCase() + ": marked " +
                   (mark === "none" ? "unknown" : mark) + proved);
  }
}

async function cycleMark(c) {
  const b = $("alphabet").querySelector('[data-letter="' + c + '"]');
  const next = NEXT_MARK[b.dataset.mark || "none"];
  if (await move({move: "mark", letters: c, mark: next})) {
    const again = $("alphabet").querySelector('[data-letter="' + c + '"]');
    again.focus();
  }
}

function alphabetKeys(event) {
  const buttons = Array.from($("alphabet").children);
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  let to = null;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") to = (at + 1) % 26;
  else if (event.key === "ArrowLeft" || event.key === "ArrowUp") to = (at + 25) % 26;
  else if (event.key === "Home") to = 0;
  else if (event.key === "End") to = 25;
  else if (/^[a-zA-Z]$/.test(event.key)) to = event.key.toLowerCase().charCodeAt(0) - 97;
  if (to === null) return;
  event.preventDefault();
  buttons[at].tabIndex = -1;
  buttons[to].tabIndex = 0;
  buttons[to].focus();
}

async function loadReview() {
  const box = $("review");
  box.textContent = "";
  box.appendChild(el("p", "The review is being made...", {class: "about"}));
  try {
    const data = await api("GET", "/api/games/" + encodeURIComponent(game.id) + "/review");
    showReview(data.review);
  } catch (e) {
    box.textContent = "";
    box.appendChild(el("p", e.message, {class: "about"}));
  }
}

function showReview(review) {
  const box = $("review");
  box.textContent = "";
  box.appendChild(el("h2", "Review"));
  box.appendChild(el("p", "For each guess: the words left before and after it, the guesses it " +
    "lost against the best guess (0 is best) and the luck of the reply.", {class: "about"}));
  for (const side of review.sides) {
    box.appendChild(el("h3", side.who === "you" ? "Your guesses" : "My guesses"));
    const wrap = el("div", null, {class: "table-box"});
    const table = el("table");
    const head = el("tr");
    for (const h of ["#", "guess", "reply", "words left", "lost", "luck", "best guess"]) head.appendChild(el("th", h));
    table.appendChild(el("thead")).appendChild(head);
    const body = table.appendChild(el("tbody"));
    side.guesses.forEach((g, k) => {
      const tr = el("tr");
      const cells = [k + 1, g.guess, review.shown[side.who][k], g.candidates + " \u2192 " + g.left,
                     g.lost_estimate.toFixed(2), (g.luck_estimate >= 0 ? "+" : "") + g.luck_estimate.toFixed(2),
                     g.best_guess];
      cells.forEach((c, j) => tr.appendChild(el("td", c, j === 1 || j === 6 ? {class: "word"} : {})));
      body.appendChild(tr);
    });
    wrap.appendChild(table);
    box.appendChild(wrap);
    box.appendChild(el("p", "Skill " + side.skill + "/99 (" + side.lost.toFixed(2) +
      " guesses lost), luck " + side.luck_score + "/99."));
  }
  box.appendChild(chart(review.sides));
  box.appendChild(el("p", review.share, {class: "share"}));
}

function chart(sides) {
  // the words left after each guess, on a log scale: one line per side
  const W = 320, H = 160, left = 34, bottom = 22, top = 10, right = 10;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 " + W + " " + H);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  const series = sides.map((s) => [s.guesses.length ? s.guesses[0].candidates : 0]
    .concat(s.guesses.map((g) => g.left)));
  const most = Math.max(2, ...series.flat());
  const steps = Math.max(1, ...series.map((x) => x.length - 1));
  const x = (k) => left + (W - left - right) * k / steps;
  const y = (n) => H - bottom - (H - bottom - top) * Math.log10(n + 1) / Math.log10(most + 1);
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.appendChild(e);
  };
  add("title", {}, "Words left after each guess");
  add("line", {x1: left, y1: H - bottom, x2: W - right, y2: H - bottom, stroke: "#888"});
  add("line", {x1: left, y1: top, x2: left, y2: H - bottom, stroke: "#888"});
  add("text", {x: 2, y: y(most) + 4}, String(most));
  add("text", {x: 2, y: y(0) + 4}, "0");
  for (let k = 0; k <= steps; k++) add("text", {x: x(k) - 3, y: H - 6}, String(k));
  const colours = {you: "#2255aa", me: "#a3261b"};
  sides.forEach((side, j) => {
    const pts = series[j].map((n, k) => x(k) + "," + y(n)).join(" ");
    add("polyline", {points: pts, fill: "none", stroke: colours[side.who], "stroke-width": 2});
    series[j].forEach((n, k) => add("circle", {cx: x(k), cy: y(n), r: 3, fill: colours[side.who]}));
    add("text", {x: W - right - 90, y: top + 12 + 14 * j, class: side.who},
        side.who === "you" ? "your guesses" : "my guesses");
  });
  return svg;
}

async function loadStats() {
  try {
    const data = await api("GET", "/api/stats");
    const box = $("stats");
    box.textContent = "";
    if (!data.summary.length) {
      box.appendChild(el("p", "No finished game recorded yet.", {class: "about"}));
      return;
    }
    const wrap = el("div", null, {class: "table-box"});
    const table = el("table");
    const head = el("tr");
    for (const h of ["mode", "words", "letters", "level", "games", "outcomes", "mean guesses"]) head.appendChild(el("th", h));
    table.appendChild(el("thead")).appendChild(head);
    const body = table.appendChild(el("tbody"));
    for (const s of data.summary) {
      const tr = el("tr");
      const outcomes = Object.entries(s.outcomes).map(([k, n]) => n + " " + k).join(", ");
      for (const c of [s.mode, s.words, s.length, s.level, s.games, outcomes,
                       s.guesses.mean === null ? "-" : s.guesses.mean.toFixed(2)]) tr.appendChild(el("td", c));
      body.appendChild(tr);
    }
    wrap.appendChild(table);
    box.appendChild(wrap);
  } catch (e) {
    $("stats").textContent = e.message;
  }
}

async function resume() {
  const id = localStorage.getItem(KEY);
  if (!id) return;
  try {
    render(await api("GET", "/api/games/" + encodeURIComponent(id)), true);
  } catch (e) {
    localStorage.removeItem(KEY);
  }
}

async function loadOptions() {
  try {
    const data = await api("GET", "/api/options");
    const about = () => { $("level-about").textContent = data.levels[$("level").value] || ""; };
    $("level").addEventListener("change", about);
    about();
  } catch (e) {
    // the form works without the descriptions
  }
}

function wire() {
  $("setup").addEventListener("submit", (e) => { e.preventDefault(); start(setupValues(), false); });
  $("guess-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await move({move: "guess", word: $("guess-word").value})) $("guess-word").value = "";
  });
  $("answer-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await move({move: "answer", reply: $("answer-text").value})) $("answer-text").value = "";
  });
  $("yes-button").addEventListener("click", () => move({move: "answer", reply: "yes"}));
  $("undo-button").addEventListener("click", () => move({move: "undo"}));
  $("fix-form").addEventListener("submit", (e) => {
    e.preventDefault();
    move({move: "fix", n: Number($("fix-n").value), reply: $("fix-reply").value});
  });
  $("word-form").addEventListener("submit", (e) => { e.preventDefault(); move({move: "word", word: $("word-text").value}); });
  $("word-skip").addEventListener("click", () => move({move: "word", word: ""}));
  $("entry-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await move({move: "enter", word: $("entry-word").value, reply: $("entry-reply").value})) {
      $("entry-word").value = "";
      $("entry-reply").value = "";
    }
  });
  $("entry-undo").addEventListener("click", () => move({move: "undo"}));
  $("entry-new").addEventListener("click", () => move({move: "new"}));
  $("give-up").addEventListener("click", () => move({move: "give_up"}));
  $("again").addEventListener("click", () => start(game.options, true));
  $("new-settings").addEventListener("click", forget);
  $("alphabet").addEventListener("keydown", alphabetKeys);
}

wire();
resume();
loadOptions();
