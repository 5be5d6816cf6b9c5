// Telegram's side of the page: the signed initData, the theme (live), MainButton, BackButton,
// haptics and no accidental swipe-to-close. Outside Telegram every call is a no-op.
const app = window.Telegram?.WebApp ?? null;

export const initData = app?.initData ?? "";
export const native = Boolean(app?.MainButton && app.initData);

// The user's language as Telegram says it, unchecked: only for the texts of a page whose
// initData the server refuses (it cannot say who he is, and says so in his language).
export function languageHint() {
  let user = app?.initDataUnsafe?.user;
  if (!user?.language_code) {
    try {
      user = JSON.parse(new URLSearchParams(initData).get("user") || "{}");
    } catch {
      user = {};
    }
  }
  return user?.language_code || navigator.language || "";
}

function applyTheme() {
  const root = document.documentElement;
  const params = app?.themeParams ?? {};
  for (const [name, value] of Object.entries(params)) {
    root.style.setProperty(`--tg-theme-${name.replace(/_/g, "-")}`, value);
  }
  const dark = app ? app.colorScheme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  root.classList.toggle("dark", dark);
}

export function start() {
  applyTheme();
  if (!app) return;
  app.onEvent?.("themeChanged", applyTheme);
  app.ready?.();
  app.expand?.();
  if (app.isVersionAtLeast?.("7.7")) app.disableVerticalSwipes?.();
}

let mainHandler = null;
export function mainButton(text, enabled, onClick) {
  const button = app?.MainButton;
  if (!button) return;
  if (mainHandler) button.offClick(mainHandler);
  mainHandler = null;
  if (text == null) {
    button.hide();
    return;
  }
  mainHandler = onClick;
  button.setText(text);
  button.onClick(mainHandler);
  // a disabled MainButton in the button's colours, dimmed, falls below WCAG AA: while it
  // cannot be pressed it reads as a status line, the theme's text on the page's background
  // (legible even dimmed)
  const theme = app.themeParams ?? {};
  const idle =
    enabled || !theme.bg_color || !theme.text_color
      ? { color: theme.button_color, text_color: theme.button_text_color }
      : { color: theme.bg_color, text_color: theme.text_color };
  if (idle.color && idle.text_color) button.setParams?.(idle);
  if (enabled) button.enable();
  else button.disable();
  button.show();
}

let backHandler = null;
export function backButton(onClick) {
  const button = app?.BackButton;
  if (!button) return;
  if (backHandler) button.offClick(backHandler);
  backHandler = onClick;
  if (onClick) {
    button.onClick(onClick);
    button.show();
  } else {
    button.hide();
  }
}

export function haptic(kind) {
  const feedback = app?.HapticFeedback;
  if (!feedback) return;
  if (kind === "move") feedback.impactOccurred("medium");
  else if (kind === "turn") feedback.impactOccurred("heavy");
  else if (kind === "select") feedback.selectionChanged();
  else if (kind === "error") feedback.notificationOccurred("error");
}

// Whether Telegram shows the Mini App now (Bot API 8.0+: isActive with the activated and
// deactivated events; older clients say nothing, and the page's own visibility decides).
export function isActive() {
  return app?.isActive ?? true;
}

export function onActivity(callback) {
  app?.onEvent?.("activated", () => callback(true));
  app?.onEvent?.("deactivated", () => callback(false));
}
