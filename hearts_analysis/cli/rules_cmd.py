"""``hearts rules``: every preset and rule field in plain words, or which rules a corpus fits.

A fitted rule set is printed as the options that audit by it, ready to paste:

>>> suggestion_command({"preset": "omnibus", "pass_cycle": ["left", "hold"], "target": 50})
'--rules omnibus --set pass_cycle=left,hold --set target=50'
>>> import tempfile, pathlib
>>> from typer.testing import CliRunner
>>> from hearts_analysis.cli import app
>>> from hearts_analysis.records.sources import write_any
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> write_any(simulate_games(1, Rules.preset("standard", target=30), seed=7), path)
1
>>> result = CliRunner().invoke(app, ["rules", "--infer", str(path)])
>>> result.exit_code, result.stdout.splitlines()[5:8]
(0, ['Fitted rule set: {"preset":"standard","target":30}', '  audit with: hearts validate --rules standard --set target=30 PATH...', '  every game is fully legal and correctly scored under it'])
"""

from __future__ import annotations

import shlex
import sys
import textwrap
from enum import Enum
from typing import Any, Optional

import orjson
import typer

from ..corpus_audit import error_report
from ..rules_fit import FieldReport, Inference, NamedRuleSet, Verdict, infer_named
from ..records.sources import iter_sources
from ..rules_help import all_field_help, all_preset_help, value_text
from ..text import counted, terminal_lines, terminal_safe
from .streams import data_form
from .app import EXIT_BAD_INPUT, EXIT_CLEAN, EXIT_VIOLATIONS, app, error_line, fail
from .progress import progress

WIDTH = 100


class RulesFormat(str, Enum):
    text = "text"
    json = "json"


@app.command("rules")
def rules_command(
    paths: Optional[list[str]] = typer.Argument(None, metavar="[PATH...]",
                                                help="With --infer: game files, folders, or - for stdin."),
    infer: bool = typer.Option(False, "--infer", help="Find the rule sets the games are consistent with."),
    count_all: bool = typer.Option(False, "--count-all",
                                   help="With --infer: count every game that rules a value out "
                                        "(slower; by default the search stops after 3)."),
    format: RulesFormat = typer.Option(RulesFormat.text, "--format", "-f", help="text or json."),
) -> None:
    """Print every preset (with its source) and every rule field, in plain words.

    With --infer, for each rule set the records name: the games that break
    it (a first violation of each); then, its games replayed under candidate
    rule sets, for each field the values every game is consistent with and the
    game and play that rule each other value out, and which presets fit. Exit
    status with --infer: 0 some rule set fits every game, 1 some violations fit
    no rule set tried, 2 some input could not be read.

    Examples: hearts rules;  hearts rules --infer games.jsonl --format json
    """
    if not infer:
        if paths:
            raise fail("game files are read only with --infer (hearts rules --infer PATH...)")
        _print_reference(format)
        raise typer.Exit(EXIT_CLEAN)
    if not paths:
        raise fail("--infer needs game files, folders, or - for stdin")
    games, errors = [], []
    for item in iter_sources(paths):
        if item.game is None:
            errors.append(error_report(item))
            typer.echo(error_line(item), err=True)
        else:
            games.append((item.source, item.game))
    if not games:
        raise fail("no readable games to infer rules from")
    hands = sum(len(game.hands) for _, game in games)
    with progress(f"inferring rules: replaying {counted(hands, 'hand')} under each candidate rule set"):
        named = infer_named(games, count_all=count_all)
    if format == RulesFormat.json:
        _write_json({"games": len(games), "hands": sum(len(game.hands) for _, game in games),
                     "rule_sets": [group.to_dict() for group in named], "errors": errors})
    else:
        typer.echo(terminal_lines(render_named(named)))
    if errors:
        raise typer.Exit(EXIT_BAD_INPUT)
    raise typer.Exit(EXIT_VIOLATIONS if any(g.inference.unexplained_count for g in named) else EXIT_CLEAN)


def _write_json(data: Any) -> None:
    with data_form("json"):
        sys.stdout.buffer.write(orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")
        sys.stdout.flush()


# -- the reference ------------------------------------------------------------------------
def _print_reference(format: RulesFormat) -> None:
    presets, fields = all_preset_help(), all_field_help()
    if format == RulesFormat.json:
        _write_json({"presets": [p.to_dict() for p in presets], "fields": [f.to_dict() for f in fields]})
        return
    typer.echo(render_reference(presets, fields))


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent) or [indent]


def render_reference(presets, fields) -> str:
    lines = ["Presets (use with --rules PRESET; override a field with --set FIELD=VALUE)", ""]
    for preset in presets:
        lines.append(f"  {preset.name}")
        lines += _wrap(preset.source, "      ")
        lines += _wrap(preset.comparison(), "      ")
        lines.append("")
    lines += ["Rule fields (defaults are the standard preset's)", ""]
    for field in fields:
        lines.append(f"  {field.name}")
        lines += _wrap(field.description, "      ")
        lines += _wrap(f"values: {field.allowed}", "      ")
        lines += _wrap(f"default: {field.default}", "      ")
        lines.append("")
    return "\n".join(lines).rstrip()


# -- an inference -----------------------------------------------------------------------------
def _games(count: int, all_counted: bool) -> str:
    return f"{count}{'' if all_counted else '+'} game{'s' if count != 1 or not all_counted else ''}"


def _ruled_out(verdict: Verdict, field: str) -> list[str]:
    head = f"not {value_text(field, verdict.value)} ({_games(verdict.games, verdict.all_counted)})"
    example = verdict.evidence[0].text() if verdict.evidence else ""
    return _wrap(f"{head}: {example}" if example else head, "      ")


def _field_lines(report: FieldReport) -> list[str]:
    fits = [value_text(report.field, v) for v in report.fitting]
    if report.field == "target" and report.note:
        summary = report.note
    else:
        summary = " | ".join(fits) if fits else "no value tried fits"
    lines = _wrap(f"{report.field}: {summary}", "  ")
    if report.note and report.field != "target":
        lines += _wrap(f"({report.note})", "      ")
    for verdict in report.verdicts:
        if not verdict.fits:
            lines += _ruled_out(verdict, report.field)
    return lines


def suggestion_command(spec: dict[str, Any]) -> str:
    """The ``--rules`` / ``--set`` options that select a rule set spec."""
    parts = [f"--rules {spec['preset']}"]
    for key, value in spec.items():
        if key == "preset" or value is None:  # a per-player-count default has no --set spelling
            continue
        text = (",".join(value) if isinstance(value, (list, tuple))
                else str(value).lower() if isinstance(value, bool) else str(value))
        parts.append("--set " + shlex.quote(f"{key}={text}"))
    return " ".join(parts)


def render_named(named: tuple[NamedRuleSet, ...]) -> str:
    """Each named rule set: the games that break it, then what its games fit."""
    blocks = []
    if len(named) > 1:
        blocks.append(f"The records name {len(named)} rule sets; the games of each are judged apart.")
    for group in named:
        spec = orjson.dumps(group.rules.to_spec()).decode()
        head = (f"Rule set {spec}, named by " if group.named else f"No rule set named (so {spec}), by ")
        lines = [head + f"{counted(group.games, 'game')} ({counted(group.hands, 'hand')}):"]
        if group.breaking_games:
            one = group.breaking_games == 1
            lines += _wrap(f"{group.breaking_games:,} {'game breaks its' if one else 'games break their'} named rules "
                           f"({group.violations:,} violation{'s' if group.violations != 1 else ''}), e.g.:", "  ")
            for evidence in group.breaking:
                lines += _wrap(evidence.text(), "    ")
            lines += _wrap("The rules fitted below set the named rules aside: where those violations are "
                           "deliberate, the fitted rules are looser than the games were played under.", "  ")
        else:
            lines.append("  every game keeps the rules it names")
        blocks.append("\n".join(lines) + "\n\n" + render_inference(group.inference))
    return "\n\n".join(blocks)


def render_inference(inference: Inference) -> str:
    lines = [f"{counted(inference.games, 'game')} ({counted(inference.hands, 'hand')}) replayed under candidate rule sets.", ""]
    spec = inference.suggestion
    lines.append(f"Fitted rule set: {orjson.dumps(spec).decode()}")
    lines.append(f"  audit with: hearts validate {suggestion_command(spec)} PATH...")
    if inference.unexplained_count:
        lines += _wrap(f"{inference.unexplained_count:,} violation(s) in {inference.unexplained_games:,} "
                       "game(s) fit no rule set tried (the values below are judged by what they add), e.g.:", "  ")
        for evidence in inference.unexplained[:3]:
            lines += _wrap(evidence.text(), "    ")
    else:
        lines.append("  every game is fully legal and correctly scored under it")
    lines += ["", "Presets:"]
    for preset in inference.presets:
        if preset.fits:
            lines.append(f"  {preset.name}: fits")
            continue
        why = f" (wrong {', '.join(preset.differs)})" if preset.differs else ""
        example = f": {preset.evidence[0].text()}" if preset.evidence else ""
        lines += _wrap(f"{preset.name}: does not fit{why}, {_games(preset.games, preset.all_counted)}{example}",
                       "  ")
        overrides = {k: v for k, v in (preset.adjusted or {}).items() if k != "preset"}
        if preset.adjusted is not None and preset.adjusted.get("preset") == preset.name and overrides:
            lines += _wrap("fits with " + ", ".join(f"{k} {value_text(k, v)}" for k, v in overrides.items()),
                           "      ")
    lines += ["", "Fields (values that fit every game, then each value ruled out with its first evidence):"]
    for report in inference.fields:
        lines += _field_lines(report)
    return "\n".join(map(terminal_safe, lines))
