"""The daily box office (/boxoffice/ and /boxoffice/<movieCd>/) in real Chromium.

Expectations are computed here from the KOBIS-shaped data in content/boxoffice/ (DESIGN.md §2.5):
rows by rank as a number, the day from `showRange`, "신작" for NEW, red ▲n / blue ▼n / "-" for the
signed `rankInten`, "오늘 … / 총 …" with thousands separators; the movie page joined by movieCd.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import assert_no_horizontal_scroll, open_at, page_layout_shift, fmt, viewport

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "content" / "boxoffice"


def daily() -> dict:
    return json.loads((DATA / "daily.json").read_text(encoding="utf-8"))["boxOfficeResult"]


def movie(code: str) -> dict:
    return json.loads((DATA / "movies" / f"{code}.json").read_text(encoding="utf-8"))["movieInfoResult"]["movieInfo"]


def grouped(text: str) -> str:
    return f"{int(text):,}"


def rows(driver) -> list[dict]:
    return driver.execute_script("""
        return [...document.querySelectorAll('[data-layout="ranking"] > [data-item]')].map(r => {
          const change = r.querySelector('.rank-change');
          return {item: r.dataset.item, rank: r.querySelector('.rank-number').textContent.replace(/\\D/g, ''),
                  change: change ? change.className : null,
                  changeSeen: change ? [...change.querySelectorAll('[aria-hidden="true"]')].map(e => e.textContent).join('') || change.textContent : null,
                  changeText: change ? change.textContent : null,
                  color: change ? getComputedStyle(change).color : null,
                  title: r.querySelector('.movie-title').textContent, audience: r.querySelector('.audience').textContent,
                  href: r.querySelector('a').href};
        });""")


@pytest.mark.parametrize("width", [320, 375, 1280])
def test_ranking_rows(browser, base_url, width):
    open_at(browser, base_url + "/boxoffice/", width, mobile=width < 768)
    result = daily()
    expected = sorted(result["dailyBoxOfficeList"], key=lambda r: int(r["rank"]))
    got = rows(browser)
    assert [r["item"] for r in got] == [e["movieCd"] for e in expected], "rows are not in rank order (as numbers)"
    assert [r["rank"] for r in got] == [e["rank"] for e in expected]
    colors = {}
    for r, e in zip(got, expected):
        assert r["title"] == e["movieNm"]
        assert r["audience"] == f"오늘 {grouped(e['audiCnt'])} / 총 {grouped(e['audiAcc'])}"
        n = int(e["rankInten"])
        if e["rankOldAndNew"] == "NEW":
            assert "rank-new" in r["change"] and r["changeText"] == "신작"
        elif n > 0:
            assert "rank-up" in r["change"] and r["changeSeen"] == f"▲{n}"
            assert f"{n}계단 상승" in r["changeText"], "the rise is also said in words"
            colors.setdefault("up", set()).add(r["color"])
        elif n < 0:
            assert "rank-down" in r["change"] and r["changeSeen"] == f"▼{-n}"
            assert f"{-n}계단 하락" in r["changeText"]
            colors.setdefault("down", set()).add(r["color"])
        else:
            assert "rank-same" in r["change"] and r["changeSeen"] == "-"
            assert "변동 없음" in r["changeText"]
        assert r["href"].endswith(f"/boxoffice/{e['movieCd']}/")
    # Red for a rise, blue for a fall.
    (up,), (down,) = colors["up"], colors["down"]
    ur, ug, ub = [int(x) for x in up[up.index("(") + 1:-1].split(",")[:3]]
    dr, dg, db = [int(x) for x in down[down.index("(") + 1:-1].split(",")[:3]]
    assert ur > 150 and ug < 80 and ub < 80, f"rise colour {up} is not red"
    assert db > 150 and dr < 80, f"fall colour {down} is not blue"
    # The day the ranking is for, from showRange (outside the list).
    day = result["showRange"].split("~")[0]
    time = browser.execute_script("const t = document.querySelector('.boxoffice-date time'); return t && [t.dateTime, t.textContent];")
    assert time == [f"{day[:4]}-{day[4:6]}-{day[6:]}", f"{int(day[:4])}년 {int(day[4:6])}월 {int(day[6:])}일"]
    assert_no_horizontal_scroll(browser, width)


def test_no_layout_shift(browser, base_url):
    open_at(browser, base_url + "/boxoffice/", 375, mobile=True)
    res = page_layout_shift(browser, settle_ms=300)
    assert res["cls"] == 0, fmt(res["entries"])


@pytest.mark.parametrize("code", sorted(p.stem for p in (DATA / "movies").glob("*.json")))
def test_movie_page_joins_the_movie_info(browser, base_url, code):
    info = movie(code)
    open_at(browser, base_url + f"/boxoffice/{code}/", 375, mobile=True)
    page = browser.execute_script("""
        const facts = {};
        for (const dt of document.querySelectorAll('.movie-facts dt')) facts[dt.textContent] = dt.nextElementSibling.textContent;
        return {title: document.querySelector('h1').textContent, en: (document.querySelector('.movie-page-title-en') || {}).textContent,
                facts, actors: [...document.querySelectorAll('.movie-cast .actor')].map(a => a.textContent),
                empty: !!document.querySelector('.empty-state')};""")
    assert page["title"] == info["movieNm"]
    if info.get("movieNmEn"):
        assert page["en"] == info["movieNmEn"]
    facts = page["facts"]
    assert facts["감독"] == (", ".join(d["peopleNm"] for d in info["directors"]) or "정보 없음")
    assert facts["제작연도"] == info["prdtYear"]
    o = info["openDt"]
    assert facts["개봉일"] == f"{o[:4]}.{o[4:6]}.{o[6:]}"
    assert facts["상영시간"] == f"{info['showTm']}분"
    assert facts["장르"] == ", ".join(g["genreNm"] for g in info["genres"])
    assert facts["국가"] == ", ".join(n["nationNm"] for n in info["nations"])
    assert facts["관람등급"] == ", ".join(a["watchGradeNm"] for a in info["audits"])
    assert page["actors"] == [a["peopleNm"] for a in info["actors"]]
    assert page["empty"] == (not info["actors"]), "an empty cast shows the empty state, and only then"
    assert_no_horizontal_scroll(browser, 375)


@pytest.mark.parametrize("code", sorted(p.stem for p in (DATA / "movies").glob("*.json")))
def test_cast_role_only_where_there_is_one(browser, base_url, code):
    """An actor with a role reads "<name> <role> 역"; one without a role (an empty `cast`) is the
    name alone, with no stray " 역" (issue 35)."""
    actors = movie(code)["actors"]
    open_at(browser, base_url + f"/boxoffice/{code}/", 375, mobile=True)
    got = browser.execute_script(
        "return [...document.querySelectorAll('.movie-cast > li')].map(li => li.textContent.replace(/\\s+/g, ' ').trim())")
    want = [f"{a['peopleNm']} {a['cast']} 역" if a.get("cast") else a["peopleNm"] for a in actors]
    assert got == want, f"/boxoffice/{code}/: cast {got}, want {want}"


def fetched() -> str:
    """When the example's ranking was fetched: `fetchedAt` beside `boxOfficeResult` in daily.json."""
    return json.loads((DATA / "daily.json").read_text(encoding="utf-8"))["fetchedAt"]


def test_the_ranking_says_when_its_data_was_fetched(browser, base_url):
    """The page says when its data was fetched, from the data (never the build's clock, so the
    output stays the same bytes whenever it is built; test_determinism checks those)."""
    stamp = fetched()          # e.g. 2025-01-06T07:30+09:00
    day, clock = stamp[:10], stamp[11:16]
    y, m, d = (int(x) for x in day.split("-"))
    open_at(browser, base_url + "/boxoffice/", 375, mobile=True)
    t = browser.execute_script("""
        const t = document.querySelector('.boxoffice-fetched time');
        return t && {datetime: t.dateTime, text: t.textContent, line: t.parentElement.textContent.trim(),
                     shown: t.checkVisibility()};""")
    assert t, "/boxoffice/ does not say when its data was fetched (.boxoffice-fetched time)"
    assert t["datetime"] == stamp and t["shown"], fmt(t)
    assert t["text"] == f"{y}년 {m}월 {d}일 {clock}", fmt(t)
    assert_no_horizontal_scroll(browser, 375)


COLUMN_JS = """
const box = sel => { const e = document.querySelector(sel); if (!e) return null; const r = e.getBoundingClientRect();
  return {left: r.left, right: r.right}; };
const text = sel => { const e = document.querySelector(sel); if (!e) return null; const r = document.createRange();
  r.selectNodeContents(e); const b = r.getBoundingClientRect(); return {left: b.left, right: b.right}; };
return {column: box(arguments[0]), heading: text('main h1'), main: box('main')};
"""


@pytest.mark.parametrize("width", [375, 1280])
def test_ranking_and_movie_page_share_one_column(browser, base_url, width):
    """The ranking and a movie's page sit in the same centred column, so going from one to the
    other does not move the text sideways (issue 50: a left-aligned list, centred movie pages)."""
    code = sorted(p.stem for p in (DATA / "movies").glob("*.json"))[0]
    open_at(browser, base_url + "/boxoffice/", width, mobile=width < 768)
    ranking = browser.execute_script(COLUMN_JS, ".boxoffice")
    ranking["row"] = browser.execute_script(
        "const r = document.querySelector('.boxoffice-link').getBoundingClientRect(); return {left: r.left, right: r.right}")
    open_at(browser, base_url + f"/boxoffice/{code}/", width, mobile=width < 768)
    page = browser.execute_script(COLUMN_JS, ".movie-page")
    got = {"ranking": ranking, "movie page": page}
    assert abs(ranking["column"]["left"] - page["column"]["left"]) <= 1, f"{width}px: the columns' left edges differ: {fmt(got)}"
    assert abs(ranking["column"]["right"] - page["column"]["right"]) <= 1, f"{width}px: the columns' right edges differ: {fmt(got)}"
    assert abs(ranking["heading"]["left"] - page["heading"]["left"]) <= 1, f"{width}px: the headings start apart: {fmt(got)}"
    assert abs(ranking["row"]["left"] - page["heading"]["left"]) <= 1, f"{width}px: the rows start off the movie page's text: {fmt(got)}"
    for name, p in got.items():
        middle, main = (p["column"]["left"] + p["column"]["right"]) / 2, (p["main"]["left"] + p["main"]["right"]) / 2
        assert abs(middle - main) <= 1, f"{width}px: the {name}'s column is not centred: {fmt(got)}"
