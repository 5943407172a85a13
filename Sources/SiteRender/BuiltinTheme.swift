/// The default theme, compiled into the binary so that a site without `templates/` builds.
/// A site's `templates/<name>.mustache` replaces the template of the same name, and its
/// `templates/assets/` files replace or add to `assets`.
public enum BuiltinTheme {
    /// The partials the page templates share. Each page template is named by its page kind's
    /// declaration (`PageKind.builtin` in SiteBuild), which puts it in the theme.
    public static let partials: [String: String] = [
        "base": base, "card": card, "card-body": cardBody, "pagination": pagination, "note-list": noteList
    ]

    /// The ids the built-in base template gives elements, which note headings must not take.
    public static let ids: Set<String> = ["main", "site-footer"]

    /// Theme files published under `assets/`, by path relative to it.
    public static let assets: [String: String] = ["sitegen.css": css, "sitegen-search.js": searchScript]

    static let base = """
        <!DOCTYPE html>
        <html lang="{{site.language}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>{{$title}}{{site.title}}{{/title}}</title>
        {{#page.description}}<meta name="description" content="{{page.description}}">
        {{/page.description}}<link rel="canonical" href="{{page.canonical}}">
        <meta property="og:type" content="{{#page.type}}{{page.type}}{{/page.type}}{{^page.type}}website{{/page.type}}">
        <meta property="og:site_name" content="{{site.title}}">
        <meta property="og:title" content="{{page.title}}">
        <meta property="og:url" content="{{page.canonical}}">
        {{#page.description}}<meta property="og:description" content="{{page.description}}">
        {{/page.description}}{{#page.image}}<meta property="og:image" content="{{page.image}}">
        <meta name="twitter:card" content="summary_large_image">
        <meta name="twitter:image" content="{{page.image}}">
        {{/page.image}}{{^page.image}}<meta name="twitter:card" content="summary">
        {{/page.image}}<meta name="twitter:title" content="{{page.title}}">
        {{#page.description}}<meta name="twitter:description" content="{{page.description}}">
        {{/page.description}}{{#site.feed}}<link rel="alternate" type="application/atom+xml" \
        title="{{site.notesTitle}} · {{site.title}}" href="{{site.feed}}">
        {{/site.feed}}{{#collection.feed}}<link rel="alternate" type="application/atom+xml" \
        title="{{collection.title}} · {{site.title}}" href="{{collection.feed}}">
        {{/collection.feed}}<link rel="stylesheet" href="{{#site.asset}}sitegen.css{{/site.asset}}">
        {{#page.codeStyles}}<link rel="stylesheet" href="{{page.codeStyles}}">
        {{/page.codeStyles}}    {{! Painted while its HTML still arrives, a page moves: rows centred on their \
        later items, text
            beside a picture, a right-aligned link that grows. rel=expect (HTML standard; Chromium 124+,
            Safari 18.2+) holds the first paint until the footer, so all of <main>, is parsed: Chromium
            waits for the element's start tag only. The theme's CSS keeps the header, bars and close
            buttons independent of later markup for browsers without it. }}
        <link rel="expect" href="#site-footer" blocking="render">
        {{$head}}{{/head}}
        </head>
        <body class="{{$bodyClass}}page{{/bodyClass}}">
        <a class="skip-link" href="#main">{{site.skipText}}</a>
        <header class="site-header">
        <a class="site-title" href="{{site.root}}">{{site.title}}</a>
        <nav class="site-nav" aria-label="{{site.navLabel}}"><ul>{{#site.sections}}<li><a \
        href="{{url}}"{{#current}} aria-current="page"{{/current}}>{{title}}</a></li>{{/site.sections}}</ul></nav>
        </header>
        <main id="main">
        {{$content}}{{/content}}
        </main>
        <footer class="site-footer" id="site-footer"><p>{{site.title}} · {{site.generator}}</p></footer>
        </body>
        </html>

        """

    public static let home = """
        {{<base}}
        {{$content}}
        <div class="prose">
        <h1>{{site.title}}</h1>
        {{#site.description}}<p class="lead">{{site.description}}</p>{{/site.description}}
        </div>
        <ul class="apps">
        {{#collections}}<li class="app" data-item="{{name}}"><a href="{{url}}">{{#icon}}<img class="app-icon" \
        src="{{src}}" width="{{width}}" height="{{height}}" alt="">{{/icon}}<span \
        class="app-title">{{title}}</span>{{#description}}<span \
        class="app-description">{{description}}</span>{{/description}}<span \
        class="app-count">{{countText}}</span></a></li>
        {{/collections}}
        </ul>
        {{^empty(notes)}}<section class="prose home-notes"><h2><a \
        href="{{site.notesURL}}">{{site.notesTitle}}</a></h2><ul>{{#notes}}<li data-item="{{slug}}"><a \
        href="{{url}}">{{title}}</a>{{#date}} <time \
        datetime="{{date}}">{{date}}</time>{{/date}}</li>{{/notes}}</ul></section>{{/empty(notes)}}
        {{/content}}
        {{/base}}

        """

    public static let list = """
        {{<base}}
        {{$title}}{{collection.title}}{{^pagination.isFirst}} \
        ({{pagination.number}}/{{pagination.count}}){{/pagination.isFirst}} · {{site.title}}{{/title}}
        {{$head}}{{#layout.css}}<style>{{{layout.css}}}</style>{{/layout.css}}{{/head}}
        {{$content}}
        <div class="list-head">
        <h1>{{collection.title}}</h1>
        {{#collection.description}}<p>{{collection.description}}</p>{{/collection.description}}
        </div>
        <div class="cards-box cards-box-{{layout.kind}}" data-collection="{{collection.name}}">
        <ul class="cards cards-{{layout.kind}}" data-layout="{{layout.kind}}"{{#layout.style}} \
        style="{{layout.style}}"{{/layout.style}}>
        {{#items}}{{>card}}
        {{/items}}
        </ul>
        </div>
        {{^items}}<p class="empty">{{site.emptyText}}</p>{{/items}}
        {{>pagination}}
        {{/content}}
        {{/base}}

        """

    static let card = """
        <li class="card" data-item="{{slug}}"{{#layoutStyle}} style="{{layoutStyle}}"{{/layoutStyle}}>{{#url}}<a \
        class="card-link" href="{{url}}">{{>card-body}}</a>{{/url}}{{^url}}<div \
        class="card-link">{{>card-body}}</div>{{/url}}</li>
        """

    static let cardBody = """
        {{#card.image}}<span class="card-media"><picture>{{#sources}}<source type="{{type}}" srcset="{{srcset}}" \
        sizes="{{sizes}}">{{/sources}}<img src="{{src}}"{{#srcset}} srcset="{{srcset}}" \
        sizes="{{sizes}}"{{/srcset}}{{#width}} width="{{width}}" height="{{height}}"{{/width}}{{#placeholder}} \
        style="{{style}}"{{/placeholder}} alt="{{card.title}}" loading="lazy" \
        decoding="async"></picture></span>{{/card.image}}<span class="card-text"><span \
        class="card-title">{{card.title}}</span>{{#card.subtitle}}<span \
        class="card-meta">{{card.subtitle}}</span>{{/card.subtitle}}</span>
        """

    static let pagination = """
        {{#pagination.many}}<nav class="pagination" \
        aria-label="{{site.pagesLabel}}"><ul>{{#pagination.prev}}<li><a rel="prev" \
        href="{{pagination.prev}}">←</a></li>{{/pagination.prev}}{{#pagination.pages}}<li>{{#current}}<span \
        aria-current="page">{{number}}</span>{{/current}}{{^current}}<a \
        href="{{url}}">{{number}}</a>{{/current}}</li>{{/pagination.pages}}{{#pagination.next}}<li><a rel="next" \
        href="{{pagination.next}}">→</a></li>{{/pagination.next}}</ul></nav>{{/pagination.many}}
        """

    public static let detail = """
        {{<base}}
        {{$title}}{{item.card.title}} · {{collection.title}} · {{site.title}}{{/title}}
        {{$content}}
        <article class="detail" data-item="{{item.slug}}">
        <a class="close" href="{{collection.url}}" aria-label="{{site.closeLabel}}">×</a>
        {{#item.card.image.detail}}<picture>{{#sources}}<source type="{{type}}" srcset="{{srcset}}" \
        sizes="{{sizes}}">{{/sources}}<img class="detail-image" src="{{src}}"{{#srcset}} srcset="{{srcset}}" \
        sizes="{{sizes}}"{{/srcset}}{{#width}} width="{{width}}" height="{{height}}"{{/width}}{{#placeholder}} \
        style="{{style}}"{{/placeholder}} alt="{{item.card.title}}"></picture>{{/item.card.image.detail}}
        <h1 class="detail-name">{{item.card.title}}</h1>
        {{#item.card.subtitle}}<p class="detail-subtitle">{{item.card.subtitle}}</p>{{/item.card.subtitle}}
        <dl class="fields">{{#item.fieldList}}<dt>{{name}}</dt><dd>{{value}}</dd>{{/item.fieldList}}\
        {{#item.termLists}}<dt><a href="{{url}}">{{title}}</a></dt><dd><ul class="item-terms">{{#terms}}<li><a \
        href="{{url}}">{{name}}</a></li>{{/terms}}</ul></dd>{{/item.termLists}}</dl>
        {{#notes}}<section class="note prose">{{#title}}<h2>{{title}}</h2>{{/title}}{{{html}}}</section>{{/notes}}
        </article>
        {{/content}}
        {{/base}}

        """

    public static let note = """
        {{<base}}
        {{$title}}{{note.title}} · {{site.title}}{{/title}}
        {{$content}}
        <article class="prose note-page">
        <h1>{{note.title}}</h1>
        {{#note.date}}<p class="note-date"><time datetime="{{note.date}}">{{note.date}}</time></p>{{/note.date}}
        {{#note.showToc}}<nav class="toc" \
        aria-label="{{site.contentsLabel}}">\(contents(depth: 6))</nav>{{/note.showToc}}
        {{{note.html}}}
        {{^empty(note.tagLinks)}}<ul class="note-tags">{{#note.tagLinks}}<li><a href="{{url}}" \
        rel="tag">#{{name}}</a></li>{{/note.tagLinks}}</ul>{{/empty(note.tagLinks)}}
        </article>
        {{/content}}
        {{/base}}

        """

    /// A note's table of contents, nested `depth` levels (partials cannot call themselves).
    static func contents(depth: Int, list: String = "note.toc") -> String {
        guard depth > 0 else { return "" }
        let inner = contents(depth: depth - 1, list: "children")
        return "<ol>{{#\(list)}}<li><a href=\"#{{id}}\">{{text}}</a>"
            + (inner.isEmpty ? "" : "{{^empty(children)}}\(inner){{/empty(children)}}") + "</li>{{/\(list)}}</ol>"
    }

    public static let notes = """
        {{<base}}
        {{$title}}{{collection.title}} · {{site.title}}{{/title}}
        {{$content}}
        <div class="prose">
        <h1>{{collection.title}}</h1>
        {{>note-list}}
        {{^items}}<p class="empty">{{site.emptyText}}</p>{{/items}}
        {{#site.tags}}<p class="tags-link"><a href="{{site.tags}}">#{{site.tagsTitle}}</a></p>{{/site.tags}}
        </div>
        {{>pagination}}
        {{/content}}
        {{/base}}

        """

    /// The notes of a list page or a tag page, with their dates.
    static let noteList = """
        <ul class="note-list">{{#items}}<li data-item="{{slug}}"><a href="{{url}}">{{title}}</a>{{#date}} <time \
        datetime="{{date}}">{{date}}</time>{{/date}}</li>{{/items}}</ul>

        """

    public static let tags = """
        {{<base}}
        {{$title}}{{page.title}} · {{site.title}}{{/title}}
        {{$content}}
        <div class="prose">
        <h1>{{page.title}}</h1>
        <ul class="tag-list">{{#tags}}<li data-item="{{name}}"><a href="{{url}}" rel="tag">#{{name}}</a> <span \
        class="tag-count">{{countText}}</span></li>{{/tags}}</ul>
        </div>
        {{/content}}
        {{/base}}

        """

    public static let tag = """
        {{<base}}
        {{$title}}#{{tag.name}} · {{site.title}}{{/title}}
        {{$content}}
        <div class="prose">
        <h1>#{{tag.name}}</h1>
        {{>note-list}}
        </div>
        {{/content}}
        {{/base}}

        """

    /// The index of a collection's terms (`terms:`): each with its count.
    public static let terms = """
        {{<base}}
        {{$title}}{{page.title}} · {{collection.title}} · {{site.title}}{{/title}}
        {{$content}}
        <div class="prose">
        <p class="terms-up"><a href="{{collection.url}}">{{collection.title}}</a></p>
        <h1>{{page.title}}</h1>
        <ul class="tag-list">{{#terms}}<li data-item="{{name}}"><a href="{{url}}">{{name}}</a> <span \
        class="tag-count">{{countText}}</span></li>{{/terms}}</ul>
        </div>
        {{/content}}
        {{/base}}

        """

    /// A term's page: the collection's cards with the term, in its layout and order.
    public static let term = """
        {{<base}}
        {{$title}}{{term.name}}{{^pagination.isFirst}} \
        ({{pagination.number}}/{{pagination.count}}){{/pagination.isFirst}} · {{terms.title}} · \
        {{collection.title}} · {{site.title}}{{/title}}
        {{$head}}{{#layout.css}}<style>{{{layout.css}}}</style>{{/layout.css}}{{/head}}
        {{$content}}
        <div class="list-head">
        <p class="terms-up"><a href="{{collection.url}}">{{collection.title}}</a> › <a \
        href="{{terms.url}}">{{terms.title}}</a></p>
        <h1>{{term.name}}</h1>
        <p>{{term.countText}}</p>
        </div>
        <div class="cards-box cards-box-{{layout.kind}}" data-collection="{{collection.name}}">
        <ul class="cards cards-{{layout.kind}}" data-layout="{{layout.kind}}"{{#layout.style}} \
        style="{{layout.style}}"{{/layout.style}}>
        {{#items}}{{>card}}
        {{/items}}
        </ul>
        </div>
        {{>pagination}}
        {{/content}}
        {{/base}}

        """

    public static let notFound = """
        {{<base}}
        {{$title}}404 · {{site.title}}{{/title}}
        {{$content}}
        <div class="prose"><h1>404</h1><p><a href="{{site.root}}">{{site.title}}</a></p></div>
        {{/content}}
        {{/base}}

        """

    static let css = """
        :root {
          color-scheme: light dark;
          --bg: #ffffff; --fg: #1c1c1e; --muted: #6b6b70; --card: #ffffff; --line: #e2e2e6; --accent: #0a64d8;
          --font: system-ui, -apple-system, "Apple SD Gothic Neo", "Noto Sans KR", "NanumGothic", "Segoe UI", \
        Roboto, sans-serif;
        }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #111113; --fg: #f2f2f5; --muted: #a0a0a8; --card: #1c1c1f; --line: #2c2c31; --accent: #6aa8ff; }
        }
        *, *::before, *::after { box-sizing: border-box; }
        /* The scrollbar's room is kept from the first paint: a page that grows past the viewport while it
           loads must not move sideways when the scrollbar appears (a layout shift). */
        html { -webkit-text-size-adjust: 100%; scrollbar-gutter: stable; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 var(--font); overflow-wrap: \
        anywhere; }
        img { max-width: 100%; height: auto; }
        a { color: var(--accent); }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); \
        white-space: nowrap; }
        .skip-link { position: absolute; left: -10000px; top: 0; }
        .skip-link:focus { left: 8px; top: 8px; z-index: 10; background: var(--bg); padding: 4px 8px; }
        /* Pages are painted while their HTML still arrives, so nothing may take its place from markup
           that comes after it: the nav's flex basis is fixed (whether it wraps under the title depends on
           the width, not on how many links have arrived), main is its own formatting context (the first
           heading's margin cannot collapse through it and move it), and the footer line is not centred. */
        .site-header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 16px; padding: 12px 16px; \
        border-bottom: 1px solid var(--line); }
        .site-nav { flex: 1 1 18em; }
        .site-title { font-weight: 700; color: var(--fg); text-decoration: none; }
        .site-nav ul { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 0; padding: 0; list-style: none; }
        .site-nav a { color: var(--muted); text-decoration: none; }
        .site-nav a[aria-current] { color: var(--fg); font-weight: 600; }
        main { display: flow-root; max-width: 1240px; margin: 0 auto; padding: 0 0 32px; }
        .site-footer { color: var(--muted); font-size: 13px; padding: 16px; border-top: 1px solid var(--line); }
        .prose, .list-head { padding: 0 16px; max-width: 760px; }
        .list-head h1, .prose h1 { font-size: 26px; line-height: 1.25; margin: 20px 0 12px; }
        .empty { padding: 0 16px; color: var(--muted); }

        /* Grid layout: the numbers (columns per width, gap, media aspect, text height) come from the
           collection's configuration through custom properties set in the page head. */
        .cards { list-style: none; margin: 0; padding: 0; }
        /* The grid keeps the headings' 16 px from the screen's sides (`inset` in site.yml; 0 spans the screen). */
        .cards-grid { display: grid; grid-template-columns: repeat(var(--cols, 2), minmax(0, 1fr)); gap: \
        var(--gap, 10px); padding: 0 var(--inset, 16px); }
        .cards-grid .card, .cards-list .card { min-width: 0; }
        .card-link { display: block; color: inherit; text-decoration: none; }
        .cards-grid .card-link:focus-visible, .cards-list .card-link:focus-visible { outline: 3px solid \
        var(--accent); outline-offset: 2px; border-radius: 4px; }
        .cards-grid .card-media { display: block; aspect-ratio: var(--media-aspect, 1); overflow: hidden; \
        background: var(--line); }
        .card-media picture { display: contents; }
        /* A <source> is a block to Chromium: in a picture with display: contents it would be a
           flex or grid item of its own, a gap each (a 40 px strip before a poster). */
        picture > source { display: none; }
        .cards-grid .card-media img { display: block; width: 100%; height: 100%; object-fit: cover; }
        .cards-grid .card-text { display: flex; flex-direction: column; justify-content: center; height: \
        var(--text-height, auto); padding: 0 4px; overflow: hidden; }
        /* A card without a picture is its text, framed so the grid still reads as cards. */
        .cards-grid .card-link:not(:has(.card-media)) .card-text { padding: 0 12px; border: 1px solid \
        var(--line); border-radius: 8px; background: var(--card); }
        .card-title { display: block; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: \
        ellipsis; }
        .card-meta { display: block; color: var(--muted); font-size: 14px; white-space: nowrap; overflow: \
        hidden; text-overflow: ellipsis; }
        .cards-list { padding: 0 16px; }
        .cards-list .card { border-bottom: 1px solid var(--line); }
        .cards-list .card-link { display: flex; gap: 12px; align-items: center; padding: 10px 0; }
        .cards-list .card-media { flex: 0 0 64px; }
        @media (min-width: 1024px) { .cards-grid { padding: 0 max(var(--inset, 16px), 16px); } }

        /* Masonry: sitegen places every card at build time (core: ResponsiveMasonry). Per breakpoint a
           card has a column (--c), a top of a + b × card width (--a px, --b) and a text of --l lines;
           the page head maps the current breakpoint's numbered values onto these names. --w, --colw
           and --h are percentages of the list's width (margins and padding resolve against the width),
           so sizes are explicit, nothing depends on fonts or image loading and nothing moves after load. */
        .cards-box-masonry { margin: 0 auto; }
        .cards-masonry { position: relative; padding-bottom: var(--h); }
        .cards-masonry > .card { position: absolute; top: 0; width: var(--w); left: calc(var(--inset-left) + \
        var(--c) * var(--colw) + var(--gap) / 2); margin-top: calc(var(--a) * 1px + var(--b) * var(--w)); \
        border-radius: 5px; overflow: hidden; background: var(--card); box-shadow: 0 1px 3px rgb(0 0 0 / 0.16); }
        .cards-masonry .card-media { display: block; aspect-ratio: 1 / var(--r); background: var(--line); }
        .cards-masonry .card-media img { display: block; width: 100%; height: 100%; object-fit: cover; }
        .cards-masonry .card-text { display: block; height: calc(2 * var(--text-pad) + var(--title-line) + \
        var(--l) * var(--text-line)); padding: var(--text-pad) var(--text-inset); overflow: hidden; }
        .cards-masonry .card-title { font-size: var(--title-size); line-height: var(--title-line); }
        .cards-masonry .card-meta { font-size: var(--text-size); line-height: var(--text-line); white-space: \
        normal; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: var(--l); line-clamp: \
        var(--l); }
        .cards-masonry .card-link:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }

        .pagination ul { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; padding: 16px; margin: 0; }
        .pagination a, .pagination span { display: inline-block; min-width: 36px; padding: 6px 10px; border: 1px \
        solid var(--line); border-radius: 6px; text-align: center; text-decoration: none; }

        /* Home: a tile per collection, like apps on a phone's home screen (icon from `icon:`). */
        .apps { list-style: none; margin: 0; padding: 0 16px; display: grid; gap: 12px; grid-template-columns: \
        repeat(auto-fill, minmax(min(100%, 140px), 1fr)); }
        .app a { display: flex; flex-direction: column; align-items: center; gap: 4px; height: 100%; padding: \
        16px 8px; border-radius: 16px; color: inherit; text-decoration: none; text-align: center; }
        .app a:hover, .app a:focus-visible { background: var(--card); box-shadow: 0 1px 6px rgb(0 0 0 / 0.12); }
        .app-icon { width: 72px; height: 72px; margin-bottom: 4px; border-radius: 18px; box-shadow: 0 2px 8px \
        rgb(0 0 0 / 0.18); }
        .app-title { font-weight: 700; font-size: 16px; }
        .app-description, .app-count { color: var(--muted); font-size: 13px; line-height: 1.35; word-break: keep-all; }

        .detail { position: relative; padding: 16px; max-width: 760px; margin: 0 auto; }
        .detail .close { position: absolute; right: 8px; top: 4px; display: grid; place-items: center; width: \
        44px; height: 44px; font-size: 28px; line-height: 1; text-decoration: none; color: var(--fg); }
        .detail-image { display: block; margin: 0 auto; border-radius: 8px; }
        /* A note on an item's page lines up with the page's text (the column has its padding). */
        .detail .note { padding: 0; }
        /* The label column is sized by the page, not by the longest label: a longer label arriving later
           would move every value sideways. */
        .fields { display: grid; grid-template-columns: minmax(6em, 30%) minmax(0, 1fr); gap: 4px 16px; }
        .fields dt { color: var(--muted); }
        .fields dd { margin: 0; }
        /* A note's page is centred like an item's. */
        .note-page { margin: 0 auto; }
        .note-date { color: var(--muted); }
        .home-notes h2 { font-size: 20px; }
        .home-notes h2 a { color: inherit; text-decoration: none; }
        .home-notes h2 a:hover, .home-notes h2 a:focus-visible { text-decoration: underline; }
        /* Links to an item's neighbours ({{#prev}}, {{#next}}), the next one on the right. */
        .neighbours { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 8px 16px; margin-top: 24px; }
        .neighbours [rel=next] { margin-left: auto; }
        .note-tags, .tag-list, .item-terms { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: \
        8px 16px; }
        .item-terms { margin: 0; }
        .terms-up { margin: 12px 0 4px; font-size: 14px; }
        .tag-count { color: var(--muted); }
        .prose pre { overflow-x: auto; }

        /* Notes (GitHub-flavoured Markdown). Code blocks are a framed box that scrolls sideways on a
           narrow screen instead of clipping; tables scroll the same way. Without specificity (:where),
           so that the highlighted code's stylesheet (highlight.css) sets its themes' colours. */
        :where(.prose pre.code) { margin: 16px 0; padding: 12px 14px; max-width: 100%; overflow-x: auto; border: \
        1px solid var(--line); border-radius: 6px; background: var(--card); font-size: 14px; line-height: 1.45; \
        overflow-wrap: normal; }
        .prose pre.code code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", \
        monospace; white-space: pre; }
        .prose :not(pre) > code { padding: 0.1em 0.35em; border-radius: 4px; background: color-mix(in srgb, \
        var(--line) 60%, transparent); font-size: 0.9em; }
        .prose table { display: block; max-width: 100%; overflow-x: auto; border-collapse: collapse; margin: 16px 0; }
        .prose th, .prose td { padding: 6px 12px; border: 1px solid var(--line); }
        .prose blockquote { margin: 16px 0; padding: 0 14px; border-left: 4px solid var(--line); color: var(--muted); }
        .prose img { max-width: 100%; height: auto; }
        .prose li:has(> input[type=checkbox]) { list-style: none; }
        .prose li > input[type=checkbox] { margin: 0 0.4em 0 -1.3em; }
        .prose .footnotes { margin-top: 32px; padding-top: 8px; border-top: 1px solid var(--line); font-size: 14px; }
        /* A heading's self-link: a # after its text, shown on hover and on keyboard focus. */
        .heading-anchor { margin-left: 0.3em; color: var(--muted); text-decoration: none; opacity: 0; }
        .heading-anchor::before { content: "#"; }
        :is(h1, h2, h3, h4, h5, h6):hover > .heading-anchor, .heading-anchor:focus-visible { opacity: 1; }
        :target { scroll-margin-top: 12px; }
        .toc { margin: 8px 0 16px; padding: 8px 16px; border: 1px solid var(--line); border-radius: 6px; }
        .toc ol { margin: 0; padding-left: 1.2em; }

        """
}
