// The server: the seat's view, its texts, a move, and live updates. The view is re-read after
// a move, whenever the server says it changed, when the page comes back to the screen, and
// when the live connection is made again; the page keeps no state of its own.
const base = new URL("api/", document.baseURI);
// The table the page shows: named in its address by the private chat's button (?t=…); a
// startapp link names it in the signed initData instead, and the menu button not at all.
const table = new URLSearchParams(location.search).get("t");

function address(path) {
  const url = new URL(path, base);
  if (table) url.searchParams.set("t", table);
  return url;
}

// how often a page on the screen says so (the server counts it gone some seconds after the last)
const BEAT_MS = 5000;

// what the page says when its state cannot be read: no table, not his table, signed too long ago
const REASONS = { 404: "web.no_table", 403: "web.not_yours", 401: "web.reopen" };
// the reasons no new connection can cure
const FINAL = new Set(["web.not_yours", "web.reopen"]);

export class Api {
  constructor(initData, onView, onOffline) {
    this.initData = initData;
    this.onView = onView;
    this.onOffline = onOffline;
    this.source = null;
    this.loading = null;
    // a read asked for while one was under way: one more once it is done
    this.again = false;
    // the session a state answer gives: it outlives the initData's hour (not the evening)
    this.session = null;
    // why the last read could not show a table (a REASONS key), or null
    this.reason = null;
  }

  headers(extra = {}) {
    const auth = this.session ? `session ${this.session}` : `tma ${this.initData}`;
    return { Authorization: auth, ...extra };
  }

  async get(path, query = {}) {
    const url = address(path);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const response = await fetch(url, { headers: this.headers(), cache: "no-store" });
    if (!response.ok) throw Object.assign(new Error(`${path}: ${response.status}`), { status: response.status });
    this.session = response.headers.get("X-Session") || this.session;
    const date = Date.parse(response.headers.get("Date") || "");
    return { body: await response.json(), serverTime: Number.isNaN(date) ? null : date / 1000 };
  }

  // The texts in the user's language; ``lang`` names it for a page the server cannot tell
  // who it is (so it can still say why no table is shown).
  texts(lang) {
    return this.get("texts", { lang }).then(({ body }) => body);
  }

  // Read the view again; concurrent calls share one request, and a call made while one is
  // under way reads once more after it: the change that asked for it may have come after that
  // request read the table (its live update would otherwise be lost until the next one).
  refresh() {
    if (this.loading) {
      this.again = true;
    } else {
      this.again = false;
      this.loading = this.get("state")
        .then(({ body, serverTime }) => {
          this.reason = null;
          this.onOffline(false);
          this.onView(body, serverTime);
        })
        .catch((error) => {
          this.reason = REASONS[error.status] ?? null;
          this.onOffline(this.reason ?? true);
        })
        .finally(() => {
          this.loading = null;
          if (this.again) this.refresh();
        });
    }
    return this.loading;
  }

  // A move: {version, verb, arg}; the key makes a retried request count once.
  async act(version, verb, arg) {
    const key = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
    const body = JSON.stringify({ version, verb, arg, key });
    for (let attempt = 0; attempt < 3; attempt++) {
      let response;
      try {
        response = await fetch(address("action"), {
          method: "POST",
          headers: this.headers({ "Content-Type": "application/json" }),
          body,
        });
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 400 * (attempt + 1)));
        continue;
      }
      const answer = await response.json().catch(() => ({}));
      if (response.ok) {
        // a new table («▶️ Новая партия»): the page goes on to it
        if (answer.table) return this.goTo(answer.table);
        if (answer.view) this.onView(answer.view, null);
        else await this.refresh();
        return { ok: true };
      }
      await this.refresh();
      return { ok: false, refused: answer.refused || null };
    }
    this.onOffline(true);
    return { ok: false, refused: null };
  }

  // The evening so far of the table's chat: its money and the settle-up (web.evening).
  evening() {
    return this.get("evening").then(({ body }) => body);
  }

  // 💡 at the turn of ``version``: {hint} (the advice in words) or {refused} (why not).
  async hint(version) {
    try {
      const response = await fetch(address("hint"), {
        method: "POST",
        headers: this.headers({ "Content-Type": "application/json" }),
        body: JSON.stringify({ version }),
      });
      const answer = await response.json().catch(() => ({}));
      if (response.ok && typeof answer.hint === "string") return { hint: answer.hint };
      return { refused: answer.refused ?? { key: "web.offline" } };
    } catch {
      return { refused: { key: "web.offline" } };
    }
  }

  // The page at another table (its payload): opened again there, live stream and all.
  goTo(payload) {
    const url = new URL(location.href);
    url.searchParams.set("t", payload);
    location.replace(url);
    return { ok: true };
  }

  // A ticket that opens the live stream: an EventSource sends no header, so the stream's
  // address carries this short-lived ticket instead of the initData or the session.
  async ticket() {
    const response = await fetch(address("ticket"), { method: "POST", headers: this.headers() });
    if (!response.ok) throw Object.assign(new Error(`ticket: ${response.status}`), { status: response.status });
    return (await response.json()).ticket;
  }

  // Presence: while the page is on the screen it says so every few seconds, so the chat stands
  // back for this player (no edit of his hand message, no call for his turn: the page shows
  // both); hidden or closed, it says so at once, and the chat brings his hand up to date.
  present(visible) {
    if (FINAL.has(this.reason)) return Promise.resolve();
    return fetch(address("presence"), {
      method: "POST",
      headers: this.headers({ "Content-Type": "application/json" }),
      body: JSON.stringify({ visible }),
      keepalive: true,
    }).catch(() => {});
  }

  watch(onScreen, onActivity) {
    const now = () => this.present(onScreen());
    now();
    setInterval(() => {
      if (onScreen()) this.present(true);
    }, BEAT_MS);
    document.addEventListener("visibilitychange", now);
    window.addEventListener("pagehide", () => this.present(false));
    onActivity(now);
  }

  // Live updates: "changed" means read the view again; so does every (re)connection.
  listen() {
    if (typeof EventSource === "undefined") return;
    // A stream the server closed (or refused) is opened again with a new ticket, once a read of
    // the view says why not if it cannot be: a page that is not his, or open too long, keeps
    // saying so (not «no connection») and stops asking; coming back to the screen asks again.
    let connecting = false;
    const connect = async () => {
      if (this.source || connecting) return;
      connecting = true;
      let ticket;
      try {
        ticket = await this.ticket();
      } catch {
        connecting = false;
        await this.refresh();
        if (!FINAL.has(this.reason)) setTimeout(connect, 3000);
        return;
      }
      connecting = false;
      if (this.source) return;
      const url = address("events");
      url.searchParams.set("ticket", ticket);
      const source = new EventSource(url);
      this.source = source;
      source.addEventListener("open", () => this.refresh());
      source.addEventListener("changed", () => this.refresh());
      source.addEventListener("error", () => {
        // the browser would open it again with the same ticket, which may have run out: a new
        // stream with a new ticket instead
        source.close();
        this.source = null;
        if (!this.reason) this.onOffline(true);
        this.refresh().then(() => {
          if (!FINAL.has(this.reason)) setTimeout(connect, 1000);
        });
      });
    };
    connect();
    // back on the screen or on the network: read the view, and open a stream given up on
    const again = () =>
      this.refresh().then(() => {
        if (!FINAL.has(this.reason)) connect();
      });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") again();
    });
    window.addEventListener("online", again);
  }
}
