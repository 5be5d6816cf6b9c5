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

// what the page says when its state cannot be read: no table, not his table, signed too long ago
const REASONS = { 404: "web.no_table", 403: "web.not_yours", 401: "web.reopen" };

export class Api {
  constructor(initData, onView, onOffline) {
    this.initData = initData;
    this.onView = onView;
    this.onOffline = onOffline;
    this.source = null;
    this.loading = null;
    // the session each state answer gives: it outlives the initData's hour
    this.session = null;
  }

  headers(extra = {}) {
    const auth = this.session ? `session ${this.session}` : `tma ${this.initData}`;
    return { Authorization: auth, ...extra };
  }

  async get(path) {
    const response = await fetch(address(path), { headers: this.headers(), cache: "no-store" });
    if (!response.ok) throw Object.assign(new Error(`${path}: ${response.status}`), { status: response.status });
    this.session = response.headers.get("X-Session") || this.session;
    const date = Date.parse(response.headers.get("Date") || "");
    return { body: await response.json(), serverTime: Number.isNaN(date) ? null : date / 1000 };
  }

  texts() {
    return this.get("texts").then(({ body }) => body);
  }

  // Read the view again; concurrent calls share one request.
  refresh() {
    if (!this.loading) {
      this.loading = this.get("state")
        .then(({ body, serverTime }) => {
          this.onOffline(false);
          this.onView(body, serverTime);
        })
        .catch((error) => this.onOffline(REASONS[error.status] ?? true))
        .finally(() => {
          this.loading = null;
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

  // Live updates: "changed" means read the view again; so does every (re)connection.
  listen() {
    if (typeof EventSource === "undefined") return;
    // a stream the server closed (or refused) is opened again with the newest session
    const connect = () => {
      const url = address("events");
      if (this.session) url.searchParams.set("session", this.session);
      else url.searchParams.set("tma", this.initData);
      const source = new EventSource(url);
      this.source = source;
      source.addEventListener("open", () => this.refresh());
      source.addEventListener("changed", () => this.refresh());
      source.addEventListener("error", () => {
        this.onOffline(source.readyState !== EventSource.OPEN);
        if (source.readyState === EventSource.CLOSED) setTimeout(connect, 3000);
      });
    };
    connect();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.refresh();
    });
    window.addEventListener("online", () => this.refresh());
  }
}
