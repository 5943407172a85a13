import Foundation
import NIOConcurrencyHelpers

/// Tells open pages that the site changed, over Server-Sent Events (`/_sitegen/events`).
/// Events: `hello` on connect (the server's identity and build number), `reload` after a
/// rebuild that changed something (with the URL paths of the pages that changed, or null for
/// all), `error` while the sources do not build (then `reload` once they do again).
/// At most `maxStreams` pages listen at once: each stream holds a connection open.
public final class LiveReload: Sendable {
    public static let eventsPath = "/_sitegen/events"
    public static let scriptPath = "/_sitegen/live.js"
    /// What HTML responses get before `</body>`.
    public static let scriptTag = "<script src=\"\(scriptPath)\"></script>"

    private struct State {
        var streams: [Int: EventStream] = [:]
        var nextID = 0
        var build = 0
        var error: String?
    }
    private let state = NIOLockedValueBox(State())
    private let server = UUID().uuidString
    public let maxStreams: Int

    public init(maxStreams: Int = 64) { self.maxStreams = maxStreams }

    /// How many pages are listening.
    public var clientCount: Int { state.withLockedValue { $0.streams.count } }

    /// Whether a build has succeeded yet: before that there is no site to serve.
    public var hasSite: Bool { state.withLockedValue { $0.build > 0 } }

    /// Adds a listener and sends it `hello` (and the current error, if any); returns its id to
    /// `unsubscribe` with, or nil when `maxStreams` are already listening.
    func subscribe(_ stream: EventStream) -> Int? {
        state.withLockedValue { s in
            guard s.streams.count < maxStreams else { return nil }
            let id = s.nextID
            s.nextID += 1
            s.streams[id] = stream
            stream.send(Self.event(.hello(server: server, build: s.build)))
            if let error = s.error { stream.send(Self.event(.error(message: error))) }
            return id
        }
    }

    /// Forgets a listener whose connection closed.
    func unsubscribe(_ id: Int) {
        _ = state.withLockedValue { $0.streams.removeValue(forKey: id) }
    }

    /// A rebuild succeeded: pages reload (only those listed, when `pages` is not nil).
    public func reload(pages: [String]?) {
        state.withLockedValue { s in
            s.build += 1
            s.error = nil
            broadcast(Self.event(.reload(build: s.build, pages: pages)), to: s.streams)
        }
    }

    /// A rebuild failed: pages show `message` until the next successful one.
    public func fail(_ message: String) {
        state.withLockedValue { s in
            s.error = message
            broadcast(Self.event(.error(message: message)), to: s.streams)
        }
    }

    /// A comment line now and then, so proxies keep the stream open and dead listeners are noticed.
    public func ping() {
        broadcast(Data(": ping\n\n".utf8), to: state.withLockedValue { $0.streams })
    }

    /// Ends every stream (the server is stopping).
    public func finish() {
        let streams = state.withLockedValue { s in
            defer { s.streams = [:] }; return s.streams
        }
        for stream in streams.values { stream.close() }
    }

    private func broadcast(_ data: Data, to streams: [Int: EventStream]) {
        for stream in streams.values { stream.send(data) }
    }

    /// What the server tells the pages, as one server-sent event each.
    enum Event: Encodable {
        /// A page started listening: which server (a restarted one reloads it) and which build.
        case hello(server: String, build: Int)
        /// A rebuild succeeded: reload (only `pages`, when listed).
        case reload(build: Int, pages: [String]?)
        /// A rebuild failed: show `message`.
        case error(message: String)

        var name: String {
            switch self {
            case .hello: "hello"
            case .reload: "reload"
            case .error: "error"
            }
        }

        private enum Key: String, CodingKey { case server, build, pages, message }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            switch self {
            case .hello(let server, let build):
                try c.encode(server, forKey: .server)
                try c.encode(build, forKey: .build)
            case .reload(let build, let pages):
                try c.encode(build, forKey: .build)
                try c.encode(pages, forKey: .pages)  // null: every page reloads
            case .error(let message):
                try c.encode(message, forKey: .message)
            }
        }
    }

    static func event(_ event: Event) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(event)) ?? Data("{}".utf8)
        return Data("event: \(event.name)\ndata: ".utf8) + json + Data("\n\n".utf8)
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
            title.textContent = building
              ? "sitegen: the site does not build yet, so there is nothing to show; " +
                "fix the file and this page shows the site."
              : "sitegen: the site does not build. The server keeps the last good version; fix the file and this \
        page reloads.";
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

/// One open event stream: `send` queues bytes on its connection (dropping the connection when it
/// does not keep up), `close` ends it.
struct EventStream: Sendable {
    let send: @Sendable (Data) -> Void
    let close: @Sendable () -> Void
}
