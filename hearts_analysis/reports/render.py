"""Turning report contexts into self-contained, offline, injection-proof HTML pages.

Everything that comes from a game record is untrusted. Three layers keep it inert:
jinja2 autoescaping for the HTML, :func:`json_for_script` for data embedded in
``<script type="application/json">`` blocks, and a Content-Security-Policy that
allows only the page's own scripts (by their SHA-256 hashes) and no network
request at all. Pages are deterministic: the same input gives the same bytes.

A player named to close the data block stays inside it:

>>> print(json_script({"player": "</script><b>"}, "game-data"))
<script type="application/json" id="game-data">{"player":"\\u003c/script\\u003e\\u003cb\\u003e"}</script>
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

import jinja2
import orjson
from markupsafe import Markup

from .. import __version__
from ..atomic import atomic_path
from .words import card_parts

PLOTLY_FILE = "plotly.min.js"
"""The name of plotly.js when it is written once beside many reports."""

_CARD_WORD = re.compile(r"(?<![\w&#])(10|[2-9TJQKA])([CDHS])(?!\w)")
"""A card named in a sentence (``TD``, ``QS``): the same two characters the record uses."""


def card_words(text: str) -> Markup:
    """A sentence of ours (a review's reason) with its cards shown as the page shows cards, so that a
    row never reads ``TD`` beside ``10♦``. The text is escaped first; only card tokens gain markup.

    >>> str(card_words("Dump TD <now>"))
    'Dump <span class="card-word suit-D" title="ten of diamonds">10<span aria-hidden="true">♦</span></span> &lt;now&gt;'
    """
    def shown(match: re.Match[str]) -> str:
        c = card_parts(match.group(0))
        if c is None:
            return match.group(0)
        return (f'<span class="card-word suit-{c["suit"]}" title="{c["label"]}">{c["rank"]}'
                f'<span aria-hidden="true">{c["symbol"]}</span></span>')
    return Markup(_CARD_WORD.sub(shown, str(Markup.escape(text))))


_SCRIPT_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
                   0x2028: "\\u2028", 0x2029: "\\u2029"}


def json_for_script(value: Any) -> str:
    """JSON that cannot end its ``<script>`` element nor start a comment or markup inside it.

    ``<``, ``>`` and ``&`` only occur inside JSON strings, where their ``\\u`` escapes mean the
    same; U+2028/U+2029 are escaped for old JavaScript parsers.
    """
    text = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY).decode()
    return text.translate(_SCRIPT_ESCAPES)


def json_script(value: Any, element_id: str) -> Markup:
    """A ``<script type="application/json">`` element that pages read with ``JSON.parse``."""
    return Markup('<script type="application/json" id="{}">{}</script>').format(
        element_id, Markup(json_for_script(value)))


def figure_data(fig: Any) -> dict[str, Any]:
    """A plotly figure as a plain ``{"data", "layout"}`` dict, ready for :func:`json_script`."""
    return orjson.loads(fig.to_json(pretty=False, remove_uids=True))


@lru_cache(maxsize=None)
def static_text(name: str) -> str:
    return resources.files("hearts_analysis").joinpath("static", name).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def plotly_js() -> str:
    """plotly.js as bundled by the plotly package: never fetched from a CDN."""
    from plotly.offline import get_plotlyjs
    js = get_plotlyjs()
    if "</script" in js.lower():  # pragma: no cover - would break inline embedding
        raise RuntimeError("the bundled plotly.js cannot be embedded inline")
    return js


@lru_cache(maxsize=None)
def _script_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("hearts_analysis", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["json_script"] = json_script
    env.filters["signed"] = lambda n: f"+{n}" if n > 0 else str(n).replace("-", "\u2212")
    env.filters["pct"] = lambda x, digits=1: "–" if x is None else f"{x:.{digits}f}%"
    env.filters["num"] = lambda n: f"{n:,}"
    env.filters["fixed"] = lambda x, digits=1: "–" if x is None else f"{x:,.{digits}f}"
    env.globals["version"] = __version__
    env.globals["card_parts"] = card_parts
    env.filters["card_words"] = card_words
    return env


@dataclass(frozen=True)
class PlotlyMode:
    """How a page gets plotly.js: ``inline`` (self-contained), ``beside`` (``plotly.min.js``
    next to the page, written once for many reports) or ``none`` (the page has no chart).

    ``assets`` (a relative folder such as ``"assets/"``) makes the page link its stylesheet and
    scripts from that folder instead of carrying them, and look for plotly.js there too: a site
    of many pages then holds each of them once (see :func:`write_assets`)."""

    how: str = "inline"
    assets: str | None = None

    def __post_init__(self) -> None:
        if self.how not in ("inline", "beside", "none"):
            raise ValueError(f"unknown plotly mode {self.how!r}")
        if self.assets is not None and (self.how == "inline" or not _relative_folder(self.assets)):
            raise ValueError(f"assets must be a relative folder ending in / and plotly not inline: {self!r}")

    def without_charts(self) -> "PlotlyMode":
        """The same page resources for a page that draws no chart."""
        return replace(self, how="none")


def _relative_folder(path: str) -> bool:
    return path.endswith("/") and not path.startswith("/") and ".." not in path.split("/") and ":" not in path


INLINE, BESIDE = PlotlyMode("inline"), PlotlyMode("beside")
ASSETS_FOLDER = "assets/"
SITE = PlotlyMode("beside", ASSETS_FOLDER)
"""Pages of a site: stylesheet, scripts and plotly.js once in ``assets/``."""


def render_page(template: str, context: dict[str, Any], plotly: PlotlyMode = INLINE,
                scripts: Iterable[str] = ("report.js",)) -> str:
    """Render a page template with the shared stylesheet, scripts and security policy."""
    scripts = tuple(scripts)
    if plotly.assets is not None:
        return _render_linked(template, context, plotly, scripts)
    own = "\n".join(static_text(name) for name in scripts)
    inline = [own]
    plotly_inline = plotly_js() if plotly.how == "inline" else None
    if plotly_inline is not None:
        inline.append(plotly_inline)
    script_src = " ".join(_script_hash(text) for text in inline)
    if plotly.how == "beside":
        script_src += " 'self' file:"
    page = environment().get_template(template).render(
        **{"site_nav": None, **context},
        csp=_policy(script_src, "'unsafe-inline'"),
        css=Markup(static_text("report.css")),
        css_href=None,
        script_srcs=(),
        own_js=Markup(own),
        plotly_inline=None if plotly_inline is None else Markup(plotly_inline),
        plotly_beside=PLOTLY_FILE if plotly.how == "beside" else None,
    )
    return page


def _policy(script_src: str, style_src: str) -> str:
    return (f"default-src 'none'; script-src {script_src}; style-src {style_src}; "
            "img-src data:; font-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'")


def _render_linked(template: str, context: dict[str, Any], plotly: PlotlyMode, scripts: tuple[str, ...]) -> str:
    """A page whose stylesheet and scripts are files of the assets folder (no inline script runs)."""
    folder = plotly.assets
    srcs = ([folder + PLOTLY_FILE] if plotly.how == "beside" else []) + [folder + name for name in scripts]
    page = environment().get_template(template).render(
        **{"site_nav": None, **context},
        csp=_policy("'self' file:", "'self' file: 'unsafe-inline'"),
        css=None,
        css_href=folder + "report.css",
        script_srcs=srcs,
        own_js=None,
        plotly_inline=None,
        plotly_beside=None,
    )
    return _INDENT.sub("\n", page)


_INDENT = re.compile(r"\n[ \t]+")
"""Template indentation: meaningless in HTML outside ``<pre>`` (no template has one; data
scripts are one line of JSON), and about a tenth of a page."""

SITE_STATIC = ("report.css", "report.js", "replay.js", "review.js", "site.js")


def write_assets(folder: str | Path, plotly: PlotlyMode = SITE) -> list[Path]:
    """The stylesheet, the scripts and plotly.js, once in ``folder / plotly.assets``; each file is
    rewritten only when missing or different."""
    target = Path(folder) / (plotly.assets or "")
    written = [_write_if_changed(target / name, static_text(name)) for name in SITE_STATIC]
    if plotly.how == "beside":
        written.append(write_plotly_beside(target))
    return written


def write_page(html: str, target: str | Path, plotly: PlotlyMode = INLINE) -> Path:
    """Write a page atomically; in ``beside`` mode also write ``plotly.min.js`` next to it once."""
    target = Path(target)
    _write_text(target, html)
    if plotly.how == "beside" and plotly.assets is None:
        write_plotly_beside(target.parent)
    return target


def write_plotly_beside(folder: str | Path) -> Path:
    """``plotly.min.js`` in ``folder``, rewritten only when missing or different."""
    return _write_if_changed(Path(folder) / PLOTLY_FILE, plotly_js())


def _write_if_changed(path: Path, text: str) -> Path:
    if not path.exists() or path.stat().st_size != len(text.encode("utf-8")) \
            or path.read_text(encoding="utf-8") != text:
        _write_text(path, text)
    return path


def _write_text(target: Path, text: str) -> None:
    """Atomically, and readable by everyone like any page a browser or web server opens."""
    with atomic_path(target, mode=0o644) as path:
        path.write_text(text, encoding="utf-8", newline="\n")
