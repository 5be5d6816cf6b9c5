// The page: read the texts and the seat's view, draw the table, the controls and the hand,
// and send each decision to the server. What the page shows always comes from the last view.
import { Api } from "./api.js";
import { canConfirm, confirmText, renderControls, renderResult } from "./controls.js";
import { layoutRows, renderHand } from "./hand.js";
import { renderHint } from "./hint.js";
import { renderLobby } from "./lobby.js";
import { renderMore } from "./more.js";
import { renderStopping } from "./stopping.js";
import { closeReplay, openReplay, replayOpen } from "./replay.js";
import { renderScore } from "./scorecard.js";
import { setCatalogue, setContext, t, tx } from "./i18n.js";
import { renderTable, setServerTime, tick } from "./table.js";
import * as tg from "./telegram.js";

const $ = (id) => document.getElementById(id);
let view = null;
let selection = new Set();
let selectionKey = "";
let busy = false;

function status(text) {
  $("status").textContent = text;
}

const handlers = {
  async play(verb, card) {
    tg.haptic("move");
    await send(verb, card);
  },
  async act(verb, arg) {
    tg.haptic("move");
    await send(verb, arg);
  },
  toggle(card) {
    if (selection.has(card)) selection.delete(card);
    else if (selection.size < view.pick.max) selection.add(card);
    tg.haptic("select");
    render();
  },
  async confirm() {
    if (!canConfirm(view, selection.size)) return;
    tg.haptic("move");
    await send(view.pick.verb, [...selection]);
  },
};

async function send(verb, arg) {
  if (busy || !view) return;
  busy = true;
  status("");
  try {
    const answer = await api.act(view.version, verb, arg);
    if (!answer.ok && answer.refused) {
      tg.haptic("error");
      status(t("web.refused", { reason: tx(answer.refused) }));
    }
  } finally {
    busy = false;
  }
}

function openLast() {
  const dialog = $("last");
  if (!dialog.open) dialog.showModal();
  dialog.addEventListener("close", () => render(), { once: true });
  render();
}

// the score card's buttons: the deal's replay, and «Дальше» to the table
const ends = {
  replay: (deal) =>
    openReplay(api, deal, view.ranks, render, status).then(() => {
      if (replayOpen()) tg.backButton(closeReplay);
    }),
  next: () => render(),
};

function render() {
  if (!view) return;
  setContext(view);
  // a new decision starts with nothing chosen
  const key = `${view.version}:${view.pick?.verb ?? ""}`;
  if (key !== selectionKey) {
    selection = new Set();
    selectionKey = key;
  }
  renderTable(view, openLast);
  renderLobby(view);
  renderControls(view, selection, handlers, tg.native);
  renderResult(view);
  renderHint(view, (version) => api.hint(version));
  renderStopping(view, handlers.act);
  renderMore(view, () => api.evening(), render);
  renderScore(view, ends);
  renderHand(view, selection, handlers);
  tick(view);
  if (view.pick) tg.mainButton(confirmText(view, selection.size), canConfirm(view, selection.size), handlers.confirm);
  else tg.mainButton(null);
  // Telegram's Back closes a dialog open (the last trick, the evening, the glossary)
  const dialog = document.querySelector("dialog[open]");
  if (dialog) tg.backButton(() => dialog.close());
  else if (view.pick && selection.size) {
    tg.backButton(() => {
      selection = new Set();
      render();
    });
  } else tg.backButton(null);
  $("app").setAttribute("aria-busy", "false");
  $("app").dataset.version = view.version; // the state drawn (the tests wait for it)
}

const yourTurn = (shown) => shown != null && shown.to_act != null && shown.to_act === shown.you;

function onView(next, serverTime) {
  if (serverTime != null) setServerTime(serverTime);
  // a move's answer is the view as the server read it, and the live update of a later change
  // can come first: an older view is not drawn over a newer one
  if (view != null && next.stamp < view.stamp) return;
  // the turn arriving is felt once, when a new view makes it yours (not on the page's first
  // view, not on every redraw of the same turn)
  const arrived = view != null && !yourTurn(view) && yourTurn(next);
  view = next;
  render();
  if (arrived) tg.haptic("turn");
}

// offline: true (no connection), false, or the key of why the table cannot be shown; with no
// table drawn yet, the reason stands in the table's place (not a bare cloth with no word)
function offline(reason) {
  const text = typeof reason === "string" ? t(reason) : reason ? t("web.offline") : "";
  const notice = view == null && typeof reason === "string";
  $("app").classList.toggle("no-table", notice);
  $("notice").textContent = notice ? text : "";
  status(notice ? "" : text);
  if (notice) $("app").setAttribute("aria-busy", "false");
}

const api = new Api(tg.initData, onView, offline);

async function main() {
  tg.start();
  setCatalogue(await api.texts(tg.languageHint()));
  document.title = t("web.title");
  status(t("web.loading"));
  await api.refresh();
  api.listen();
  api.watch(() => document.visibilityState === "visible" && tg.isActive(), tg.onActivity);
  setInterval(() => view && tick(view), 1000);
  window.addEventListener("resize", layoutRows);
}

main();
