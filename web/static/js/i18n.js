// Texts from the server's catalogue (web.texts): no text lives in the page itself.
let catalogue = { lang: "ru", texts: {}, ranks: { latin: {}, russian: {} }, suits: {} };
let plural = new Intl.PluralRules("ru");
let ranks = "russian";
let names = [];

export function setCatalogue(data) {
  catalogue = data;
  plural = new Intl.PluralRules(data.lang);
  document.documentElement.lang = data.lang;
}

// The glossary entries of a game (their keys): the words a newcomer cannot know.
export function glossaryOf(kind) {
  return catalogue.glossary?.[kind] ?? [];
}

export function setContext(view) {
  ranks = view.ranks;
  names = view.seats.map((seat) => seat.name);
}

export function seatName(seat) {
  return names[seat] ?? String(seat + 1);
}

export function rankLabel(rank) {
  return catalogue.ranks[ranks]?.[rank] ?? rank;
}

export function suitSymbol(suit) {
  return catalogue.suits[suit] ?? suit;
}

// A card as the chat writes it: «10♥️», «В♠️» (or «J♠️»).
export function cardLabel(card) {
  return rankLabel(card[0]) + suitSymbol(card[1]);
}

function param(value) {
  if (value && typeof value === "object") {
    if ("seat" in value) return seatName(value.seat);
    if ("card" in value) return cardLabel(value.card);
    if ("suit" in value) return suitSymbol(value.suit);
    if ("key" in value) return tx(value);
  }
  // a negative count as the chat writes money: «−3 фишки», a true minus sign
  if (typeof value === "number" && value < 0) return `\u2212${-value}`;
  return String(value);
}

// t("key", {params}, n): the entry (its plural form for n), placeholders filled in.
export function t(key, params = {}, n = undefined) {
  let entry = catalogue.texts[key];
  if (entry === undefined) return key;
  if (typeof entry === "object") entry = entry[plural.select(n ?? 0)] ?? entry.other ?? entry.many;
  const values = n === undefined ? params : { ...params, n };
  // the chat's entries may carry Telegram's HTML (<b>); the page shows plain text
  return entry.replace(/<[^>]+>/g, "").replace(/\{(\w+)\}/g, (_, name) => (name in values ? param(values[name]) : ""));
}

// A text object of the seat view: {key, params, n?}.
export function tx(text) {
  return text ? t(text.key, text.params || {}, text.n) : "";
}
