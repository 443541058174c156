"""``hearts explain``: one violation code in plain words, from the catalogue.

>>> from typer.testing import CliRunner
>>> from hearts_analysis.cli import app
>>> result = CliRunner().invoke(app, ["explain", "revoke"])
>>> result.exit_code, result.stdout.splitlines()[0]
(0, 'revoke: Did not follow suit (revoke)')
>>> wrong = CliRunner().invoke(app, ["explain", "revoked"])
>>> wrong.exit_code, wrong.stderr.splitlines()[:2]
(2, ['hearts: unknown violation code "revoked" (did you mean "revoke"?); the codes are:', '  deal-invalid           The deal is not a legal deal'])
"""

from __future__ import annotations

from typing import Optional

import typer

from ..violations import CATALOGUE, explain
from ..suggest import did_you_mean
from ..text import shown
from .app import EXIT_BAD_INPUT, EXIT_CLEAN, app


def code_list() -> str:
    width = max(len(code) for code in CATALOGUE)
    return "\n".join(f"  {rule.code:<{width}}  {rule.title}" for rule in CATALOGUE.values())


@app.command("explain")
def explain_command(
    code: Optional[str] = typer.Argument(None, metavar="[CODE]", help="A violation code, e.g. revoke."),
) -> None:
    """Explain a violation code: what the rule is, why it exists, an example.

    Without a code, list every code. An unknown code lists them too (exit 2).

    Example: hearts explain revoke
    """
    if code is None:
        typer.echo("Violation codes (hearts explain CODE for one):\n" + code_list())
        raise typer.Exit(EXIT_CLEAN)
    wanted = code.strip().lower()
    if wanted not in CATALOGUE:
        hint = did_you_mean(wanted, CATALOGUE)
        typer.echo(f"hearts: unknown violation code {shown(code)}{hint}; the codes are:\n{code_list()}", err=True)
        raise typer.Exit(EXIT_BAD_INPUT)
    typer.echo(explain(wanted).rstrip())
    raise typer.Exit(EXIT_CLEAN)
