// What the loaders share: a custom element that shows a Signet page from a session link in a
// sandboxed frame, raises the page's events as DOM events (CustomEvent, bubbling), and grows
// to the page's height. Messages are taken only from the frame itself, from the link's own
// origin. The events are hints: confirm outcomes with the API.

/** Defines `<tag url="...">` for a page whose events are `events`; `title` names the frame
 * for screen readers, `what` names the page in an error. */
export function defineFrame(tag: string, events: string[], title: string, what: string) {
  class SignetFrame extends HTMLElement {
    static observedAttributes = ["url"];
    private frame: HTMLIFrameElement | null = null;
    private origin = "";
    private timer: ReturnType<typeof setTimeout> | undefined;
    private loaded = false;
    /** The address the frame was opened with: a link works once, so it is never opened twice. */
    private opened: string | null = null;

    connectedCallback() {
      window.addEventListener("message", this.onMessage);
      this.open();
    }

    disconnectedCallback() {
      window.removeEventListener("message", this.onMessage);
      clearTimeout(this.timer);
    }

    attributeChangedCallback(_name: string, was: string | null, now: string | null) {
      if (this.isConnected && was !== now) this.open();
    }

    private emit(type: string, detail: unknown = {}) {
      this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    }

    private open() {
      const url = this.getAttribute("url");
      if (!url || url === this.opened) return;
      this.opened = url;
      let at: URL;
      try {
        at = new URL(url, location.href);
      } catch {
        this.emit("error", { reason: "the url attribute is not an address" });
        return;
      }
      this.origin = at.origin;
      this.loaded = false;
      const root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
      const style = document.createElement("style");
      style.textContent = ":host{display:block}iframe{display:block;border:0;width:100%;height:640px}";
      const frame = document.createElement("iframe");
      frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms allow-downloads allow-modals allow-popups");
      frame.setAttribute("referrerpolicy", "no-referrer");
      frame.setAttribute("allow", "clipboard-write");
      frame.title = this.getAttribute("title") || title;
      frame.src = at.href;
      root.replaceChildren(style, frame);
      this.frame = frame;
      clearTimeout(this.timer);
      // A page that never reports (refused, unreachable, the link run out) is an error.
      const wait = Number(this.getAttribute("load-timeout")) || 20000;
      this.timer = setTimeout(() => {
        if (!this.loaded) this.emit("error", { reason: `the ${what} did not load` });
      }, wait);
    }

    private onMessage = (e: MessageEvent) => {
      if (!this.frame || e.source !== this.frame.contentWindow || e.origin !== this.origin) return;
      const m = e.data as { signet?: number; type?: string; detail?: unknown; height?: number };
      if (!m || m.signet !== 1 || typeof m.type !== "string") return;
      if (m.type === "resize" && typeof m.height === "number") {
        this.frame.style.height = `${Math.min(Math.max(Math.ceil(m.height), 120), 100000)}px`;
        return;
      }
      if (!events.includes(m.type)) return;
      // The page answered: whatever it says, it loaded.
      this.loaded = true;
      clearTimeout(this.timer);
      this.emit(m.type, m.detail ?? {});
    };
  }

  if (!customElements.get(tag)) customElements.define(tag, SignetFrame);
}
