"""Turning report contexts into self-contained, offline, injection-proof HTML pages.

Everything that comes from a game record is untrusted. Three layers keep it inert:
jinja2 autoescaping for the HTML, :func:`json_for_script` for data embedded in
``<script type="application/json">`` blocks, and a Content-Security-Policy that
allows only the page's own scripts (by their SHA-256 hashes) and no network
request at all. Pages are deterministic: the same input gives the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
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
    return env


@dataclass(frozen=True)
class PlotlyMode:
    """How a page gets plotly.js: ``inline`` (self-contained), ``beside`` (``plotly.min.js``
    next to the page, written once for many reports) or ``none`` (the page has no chart)."""

    how: str = "inline"

    def __post_init__(self) -> None:
        if self.how not in ("inline", "beside", "none"):
            raise ValueError(f"unknown plotly mode {self.how!r}")


INLINE, BESIDE = PlotlyMode("inline"), PlotlyMode("beside")


def render_page(template: str, context: dict[str, Any], plotly: PlotlyMode = INLINE,
                scripts: Iterable[str] = ("report.js",)) -> str:
    """Render a page template with the shared stylesheet, scripts and security policy."""
    own = "\n".join(static_text(name) for name in scripts)
    inline = [own]
    plotly_inline = plotly_js() if plotly.how == "inline" else None
    if plotly_inline is not None:
        inline.append(plotly_inline)
    script_src = " ".join(_script_hash(text) for text in inline)
    if plotly.how == "beside":
        script_src += " 'self' file:"
    csp = (f"default-src 'none'; script-src {script_src}; style-src 'unsafe-inline'; "
           "img-src data:; font-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'")
    page = environment().get_template(template).render(
        **context,
        csp=csp,
        css=Markup(static_text("report.css")),
        own_js=Markup(own),
        plotly_inline=None if plotly_inline is None else Markup(plotly_inline),
        plotly_beside=PLOTLY_FILE if plotly.how == "beside" else None,
    )
    return page


def write_page(html: str, target: str | Path, plotly: PlotlyMode = INLINE) -> Path:
    """Write a page atomically; in ``beside`` mode also write ``plotly.min.js`` next to it once."""
    target = Path(target)
    _write_text(target, html)
    if plotly.how == "beside":
        write_plotly_beside(target.parent)
    return target


def write_plotly_beside(folder: str | Path) -> Path:
    """``plotly.min.js`` in ``folder``, rewritten only when missing or different."""
    path = Path(folder) / PLOTLY_FILE
    js = plotly_js()
    if not path.exists() or path.stat().st_size != len(js.encode("utf-8")) \
            or path.read_text(encoding="utf-8") != js:
        _write_text(path, js)
    return path


def _write_text(target: Path, text: str) -> None:
    """Atomically, and readable by everyone like any page a browser or web server opens."""
    with atomic_path(target) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")
        tmp.chmod(0o644)
