"""Run ringmaster command lines inside the test process, through the CLI's one error boundary."""

from __future__ import annotations

from dataclasses import dataclass

from click.testing import CliRunner

from ringmaster.cli import run_command_line
from ringmaster.game.engines import ChannelFactory, subprocess_channel


@dataclass
class CliResult:
    """exit_code, and output: stdout and stderr interleaved, as a user sees them."""

    exit_code: int
    output: str
    stdout: str
    stderr: str


def invoke(*args: str, channel_factory: ChannelFactory = subprocess_channel) -> CliResult:
    """Run `ringmaster ARGS` here; engines are started by channel_factory."""
    with CliRunner().isolation() as (stdout, stderr, output):
        code = run_command_line(list(args), channel_factory=channel_factory)
    return CliResult(code, output.getvalue().decode(), stdout.getvalue().decode(),
                     stderr.getvalue().decode())
