import Foundation
import FlyingSocks

/// Tells open pages that the site changed, over Server-Sent Events (`/_sitegen/events`).
/// Events: `hello` on connect (the server's identity and build number), `reload` after a
/// rebuild that changed something (with the URL paths of the pages that changed, or null for
/// all), `error` while the sources do not build (then `reload` once they do again).
public actor LiveReload {
    public static let eventsPath = "/_sitegen/events"
    public static let scriptPath = "/_sitegen/live.js"
    /// What HTML responses get before `</body>`.
    public static let scriptTag = "<script src=\"\(scriptPath)\"></script>"

    private var clients: [UUID: AsyncStream<Data>.Continuation] = [:]
    private var build = 0
    private var error: String?
    private let server = UUID().uuidString

    public init() {}

    /// How many pages are listening.
    public var clientCount: Int { clients.count }

    /// Whether a build has succeeded yet: before that there is no site to serve.
    public var hasSite: Bool { build > 0 }

    /// A new listener's stream: `hello`, then the current error if there is one, then events as they happen.
    func subscribe() -> AsyncStream<Data> {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        clients[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.remove(id) } }
        continuation.yield(Self.event("hello", ["server": server, "build": build]))
        if let error { continuation.yield(Self.event("error", ["message": error])) }
        return stream
    }

    private func remove(_ id: UUID) { clients[id] = nil }

    /// A rebuild succeeded: pages reload (only those listed, when `pages` is not nil).
    public func reload(pages: [String]?) {
        build += 1
        error = nil
        broadcast(Self.event("reload", ["build": build, "pages": pages.map { $0 as Any } ?? NSNull()]))
    }

    /// A rebuild failed: pages show `message` until the next successful one.
    public func fail(_ message: String) {
        error = message
        broadcast(Self.event("error", ["message": message]))
    }

    /// A comment line now and then, so proxies keep the stream open and dead listeners are noticed.
    public func ping() {
        broadcast(Data(": ping\n\n".utf8))
    }

    /// Ends every stream (the server is stopping).
    public func finish() {
        for c in clients.values { c.finish() }
        clients = [:]
    }

    private func broadcast(_ data: Data) {
        for (id, c) in clients {
            if case .terminated = c.yield(data) { clients[id] = nil }
        }
    }

    static func event(_ name: String, _ payload: [String: Any]) -> Data {
        let json = (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Data("event: \(name)\ndata: ".utf8) + json + Data("\n\n".utf8)
    }

    /// `html` with the listening script added before `</body>` (or at the end).
    public static func inject(_ html: Data) -> Data {
        let tag = Data(scriptTag.utf8)
        if let r = html.range(of: Data("</body>".utf8), options: .backwards) {
            var out = html
            out.replaceSubrange(r.lowerBound..<r.lowerBound, with: tag)
            return out
        }
        return html + tag
    }

    /// The page script: reloads on `reload` (keeping the scroll position), shows an overlay with
    /// the error on `error`, and reloads when the server restarted.
    public static let script = #"""
    (() => {
      "use strict";
      const key = "sitegen:scroll:" + location.pathname;
      const saved = sessionStorage.getItem(key);
      if (saved) {
        sessionStorage.removeItem(key);
        const [x, y] = JSON.parse(saved);
        const restore = () => window.scrollTo(x, y);
        if (document.readyState === "complete") restore(); else addEventListener("load", restore, { once: true });
      }
      let server = null;
      let overlay = null;
      const building = document.querySelector('meta[name="sitegen-building"]') !== null;
      const reload = () => {
        sessionStorage.setItem(key, JSON.stringify([window.scrollX, window.scrollY]));
        location.reload();
      };
      const shows = (pages) => {
        if (!pages) return true;
        const here = [location.pathname];
        try { here.push(decodeURI(location.pathname)); } catch (_) {}
        return pages.some((p) => here.includes(p) || here.includes(encodeURI(p)));
      };
      const clear = () => { if (overlay) { overlay.remove(); overlay = null; } };
      const show = (message) => {
        clear();
        overlay = document.createElement("div");
        overlay.id = "sitegen-error";
        overlay.setAttribute("role", "alert");
        overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;padding:24px;" +
          "background:#18181b;color:#fafafa;font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,monospace";
        const title = document.createElement("p");
        title.style.cssText = "margin:0 0 12px;font-weight:700;color:#fca5a5";
        title.textContent = "sitegen: the site does not build. The server keeps the last good version; fix the file and this page reloads.";
        const text = document.createElement("pre");
        text.style.cssText = "margin:0;white-space:pre-wrap";
        text.textContent = message;
        overlay.append(title, text);
        document.body.append(overlay);
      };
      const events = new EventSource("/_sitegen/events");
      events.addEventListener("hello", (e) => {
        const d = JSON.parse(e.data);
        // The server restarted, or this is the building page and the site was built meanwhile.
        if ((server !== null && d.server !== server) || (building && d.build > 0)) reload();
        server = d.server;
      });
      events.addEventListener("reload", (e) => {
        const d = JSON.parse(e.data);
        if (overlay || shows(d.pages)) reload();
      });
      events.addEventListener("error", (e) => {
        if (typeof e.data === "string") show(JSON.parse(e.data).message);
      });
    })();
    """#
}

/// The bytes of an event stream as the HTTP body reads them.
struct EventBytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let events: AsyncStream<Data>

    func makeAsyncIterator() -> Iterator { Iterator(events: events.makeAsyncIterator()) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var events: AsyncStream<Data>.Iterator
        var pending: [UInt8] = []

        mutating func next() async -> UInt8? {
            if pending.isEmpty {
                guard let data = await events.next() else { return nil }
                pending = Array(data)
            }
            return pending.isEmpty ? nil : pending.removeFirst()
        }

        mutating func nextBuffer(suggested count: Int) async -> [UInt8]? {
            if pending.isEmpty {
                guard let data = await events.next() else { return nil }
                pending = Array(data)
            }
            let n = Swift.min(Swift.max(count, 1), pending.count)
            let chunk = Array(pending.prefix(n))
            pending.removeFirst(n)
            return chunk
        }
    }
}
