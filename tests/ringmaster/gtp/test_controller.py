"""The GTP controller against a scripted transport, and the subprocess channel against a fake engine."""

from __future__ import annotations

import io
import os
import shutil
import signal
import sys
import time

import pytest

from ringmaster.gtp.channel import (
    Channel,
    GtpChannelClosed,
    GtpProtocolError,
    GtpTimeout,
    GtpTransportError,
    SubprocessChannel,
    clean_response_line,
)
from ringmaster.gtp.controller import BadGtpResponse, GtpController
from ringmaster.gtp.launch import engine_start_error, setpriv_path
from tests.fakes.channels import ClosedChannel, EngineChannel, ScriptedChannel
from tests.fakes.fake_commands import fake_engine_command


def test_success_and_failure_responses():
    channel = ScriptedChannel([("name", (False, "fake")), ("genmove b", (True, "cannot think"))])
    controller = GtpController(channel, "player x")
    assert controller.do_command("name") == "fake"
    with pytest.raises(BadGtpResponse) as info:
        controller.do_command("genmove", "b")
    assert str(info.value) == "failure response from 'genmove b' to player x: cannot think"
    assert info.value.gtp_message == "cannot think"
    assert info.value.command == "genmove" and info.value.arguments == ("b",)
    assert not controller.channel_is_bad
    channel.assert_done()


def test_default_and_per_command_timeouts_reach_the_channel():
    channel = ScriptedChannel([("a", (False, "")), ("b", (False, "")), ("c", (False, ""))])
    controller = GtpController(channel, "player x", default_timeout=7.0)
    controller.do_command("a")
    controller.do_command("b", timeout=2.5)
    controller.do_command("c", timeout=None)
    assert channel.timeouts == [7.0, 2.5, None]


def test_timeout_marks_the_channel_bad_and_names_the_command():
    channel = ScriptedChannel([("genmove w", GtpTimeout("x")), ])
    controller = GtpController(channel, "player slow", default_timeout=3)
    with pytest.raises(GtpTimeout) as info:
        controller.do_command("genmove", "w")
    assert str(info.value) == "timeout (3s) waiting for response to 'genmove w' from player slow"
    assert controller.channel_is_bad
    with pytest.raises(GtpTransportError) as info:   # saying why, whatever comes after
        controller.do_command("name")
    assert str(info.value) == ("error sending 'name' to player slow: channel is unusable: "
                               "timeout (3s) waiting for response to 'genmove w' from player slow")


class ChattyChannel(ScriptedChannel):
    """A scripted channel whose engine has said unasked what unasked holds."""

    unasked = b""

    def unasked_output(self) -> bytes:
        return self.unasked


def test_output_after_the_last_response_is_a_protocol_error_naming_that_command():
    # Two responses to genmove: the second would be read as the next command's answer.
    channel = ChattyChannel([("genmove b", (False, "C3")), ("name", (False, "x"))])
    controller = GtpController(channel, "player x")
    assert controller.do_command("genmove", "b") == "C3"
    channel.unasked = b"= D4"
    with pytest.raises(GtpProtocolError) as info:
        controller.do_command("play", "w", "E5")
    reason = ("player x sent output no command asked for after its response to 'genmove b' "
              "(more responses than commands): '= D4'")
    assert str(info.value) == reason
    assert controller.channel_is_bad and channel.sent == ["genmove b"]
    with pytest.raises(GtpTransportError) as info:   # one who ignored it hears it again
        controller.do_command("name")
    assert str(info.value) == f"error sending 'name' to player x: channel is unusable: {reason}"


def test_output_is_looked_for_only_with_no_response_outstanding():
    channel = ChattyChannel([("a", (False, "1")), ("b", (False, "2")), ("quit", (False, ""))])
    controller = GtpController(channel, "player x")
    sent = controller.send_commands(("a",))
    channel.unasked = b"= 2"     # b's answer, come before b was sent: not unasked (a is awaited)
    controller.send_commands(("b",))
    assert controller.receive_commands(sent) == ["1"]
    assert controller.receive_commands((("b", ()),)) == ["2"]
    controller.close()            # quit is sent whatever the engine said: it is going anyway
    assert channel.sent == ["a", "b", "quit"]


@pytest.mark.integration
def test_a_subprocess_channels_unasked_output_leaves_out_blank_lines(tmp_path):
    script = tmp_path / "e.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('twice'):\n"
        "        sys.stdout.write('= 1\\n\\n= 2\\n\\n')\n"
        "    else:\n"
        "        sys.stdout.write('= x\\n\\n\\n \\n')   # blank lines after: harmless\n"
        "    sys.stdout.flush()\n")
    channel = SubprocessChannel([sys.executable, str(script)])
    try:
        channel.send_command("once", ())
        assert channel.get_response(5) == (False, "x")
        time.sleep(0.2)
        assert channel.unasked_output() == b""
        channel.send_command("twice", ())
        assert channel.get_response(5) == (False, "1")
        time.sleep(0.2)
        assert channel.unasked_output() == b"= 2"
    finally:
        channel.kill()
        channel.close(1)


# An engine for the tests of command ids: it notes each line it reads in the file named by
# its first argument, and answers as the second says: 'echo' (the id echoed), 'silent' (no
# id in any answer), 'naive' (an id is an unknown command), 'drops-id' or 'wrong-id' (the id
# echoed in the first answer only), 'quit-noid' (none on quit's answer, '=\n\n'),
# 'fail-noid' (none on a failure), 'spaced' ('= 1 2', as print('=', id, text) writes),
# 'zeros' ('=01 2'), 'numbered-exit' (exits on reading a line that starts with a number).
# 'twice' is answered twice, the second time on reading the next command (after it was
# sent); 'slow' after a second.
ID_ENGINE = r"""
import sys, time
noted, mode = sys.argv[1], sys.argv[2]
late, answers = '', 0
for line in sys.stdin:
    open(noted, 'a').write(line)
    words = line.split()
    cid = words.pop(0) if words[0].isdigit() else ''
    if cid and mode == 'numbered-exit':
        sys.exit(1)
    sys.stdout.write(late)
    late = ''
    reply = {'protocol_version': '2', 'name': 'ids', 'twice': '1', 'slow': '2',
             'quit': ''}.get(words[0])
    if mode == 'naive' and cid:
        out = '? unknown command'
    else:
        echoed = '' if mode == 'silent' or (mode in ('drops-id', 'wrong-id') and answers) else cid
        if mode == 'wrong-id' and answers:
            echoed = '99'
        if (mode, words[0]) == ('quit-noid', 'quit') or (mode == 'fail-noid' and reply is None):
            echoed = ''
        if cid and mode in ('spaced', 'zeros'):
            echoed = {'spaced': ' ', 'zeros': '0'}[mode] + cid
        if reply is None:
            out = '?' + echoed + ' unknown command'
        else:
            out = '=' + echoed + (' ' + reply if reply else '')
    answers += 1
    if words[0] == 'twice':
        late = out + '\n\n'
    if words[0] == 'slow':
        time.sleep(1)
    sys.stdout.write(out + '\n\n')
    sys.stdout.flush()
    if words[0] == 'quit':
        break
"""


def _id_engine(tmp_path, mode: str, send_ids: bool = True
               ) -> tuple[GtpController, SubprocessChannel, str]:
    script, noted = tmp_path / "ids.py", tmp_path / "noted"
    script.write_text(ID_ENGINE)
    channel = SubprocessChannel([sys.executable, str(script), str(noted), mode], send_ids=send_ids)
    return GtpController(channel, "player x", default_timeout=10), channel, str(noted)


@pytest.mark.integration
def test_an_answer_written_after_the_next_command_is_named_never_read_as_its_answer(tmp_path):
    # Without ids, 'twice''s second answer was read as the next command's answer, that one as
    # the one after's, and so on: a genmove read a play's empty answer.
    controller, channel, noted = _id_engine(tmp_path, "echo")
    try:
        assert controller.do_command("protocol_version") == "2"
        assert controller.do_command("twice") == "1"
        with pytest.raises(GtpProtocolError) as info:
            controller.do_command("name")
        reason = ("error reading response to 'name' from player x: engine sent a second answer "
                  "to 'twice': '=2 1'")
        assert str(info.value) == reason
        with pytest.raises(GtpTransportError) as info:   # nothing more is read from it
            controller.do_command("name")
        assert str(info.value) == f"error sending 'name' to player x: channel is unusable: {reason}"
        assert open(noted).read() == "1 protocol_version\n2 twice\n3 name\n"
        assert channel.echoes_ids
    finally:
        controller.abandon()


@pytest.mark.integration
def test_an_answer_with_another_id_is_an_answer_to_no_command_naming_the_awaited(tmp_path):
    controller, channel, _ = _id_engine(tmp_path, "wrong-id")
    try:
        assert controller.do_command("protocol_version") == "2"
        with pytest.raises(GtpProtocolError) as info:
            controller.do_command("name")
        assert str(info.value) == (
            "error reading response to 'name' from player x: engine sent an answer to no "
            "command (not with the id of 'name', the command awaited): '=99 ids'")
        assert controller.channel_is_bad
    finally:
        controller.abandon()


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["drops-id", "quit-noid", "fail-noid", "spaced", "zeros"])
def test_engines_that_echo_ids_their_own_way_are_understood(tmp_path, mode):
    # Refused since ids were sent: an answer without the id (quit's '=', a failure's '?
    # unknown command', all after the first) was 'an answer to no command', '= 1 2' protocol
    # version '1 2', '=01' another id. An answer without an id is taken in order.
    controller, channel, noted = _id_engine(tmp_path, mode)
    try:
        assert controller.do_command("protocol_version") == "2"
        assert controller.do_command("name") == "ids"
        with pytest.raises(BadGtpResponse) as info:   # a failure is no protocol error
            controller.do_command("frobnicate")
        assert info.value.gtp_message == "unknown command"
        assert controller.do_command("twice") == "1"
        if mode in ("drops-id", "spaced"):   # without an id, or '= 4 1': unknowable as one
            assert controller.do_command("name") in ("1", "4 1")
            controller.close()   # quit answered
        else:   # a second answer is named by its id
            with pytest.raises(GtpProtocolError, match="a second answer to 'twice'"):
                controller.do_command("name")
        assert open(noted).read().startswith("1 protocol_version\n2 name\n3 frobnicate\n")
        assert channel.echoes_ids
    finally:
        controller.abandon()


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["quit-noid", "spaced", "zeros"])
def test_quit_is_answered_whatever_way_the_engine_echoes_ids(tmp_path, mode):
    controller, channel, noted = _id_engine(tmp_path, mode)
    try:
        assert controller.do_command("protocol_version") == "2"
        controller.close()   # raises if quit's answer isn't understood
        assert open(noted).read() == "1 protocol_version\n2 quit\n"
        assert channel.exit_status == 0
    finally:
        controller.abandon()


@pytest.mark.integration
def test_an_engine_sent_no_ids_gets_none(tmp_path):
    # gtp_ids=False: for an engine that dies on a line starting with a number.
    controller, channel, noted = _id_engine(tmp_path, "numbered-exit", send_ids=False)
    try:
        assert controller.do_command("protocol_version") == "2"
        assert controller.do_command("name") == "ids"
        controller.close()
        assert open(noted).read() == "protocol_version\nname\nquit\n"
    finally:
        controller.abandon()


@pytest.mark.integration
@pytest.mark.parametrize("mode, lines", [
    ("silent", "1 protocol_version\nname\ntwice\nname\n"),
    ("naive", "1 protocol_version\nprotocol_version\nname\ntwice\nname\n"),   # asked again
])
def test_an_engine_whose_first_answer_has_no_id_is_sent_none_after(tmp_path, mode, lines):
    # GTP has engines echo ids; those that don't have their answers taken in order, as before.
    controller, channel, noted = _id_engine(tmp_path, mode)
    try:
        assert controller.do_command("protocol_version") == "2"
        assert controller.do_command("name") == "ids"
        assert controller.do_command("twice") == "1"
        assert controller.do_command("name") == "1"   # the second answer, unknowable as one
        assert open(noted).read() == lines
        assert channel.echoes_ids is False
    finally:
        controller.abandon()


@pytest.mark.integration
def test_an_answer_after_the_timeout_is_never_read(tmp_path):
    controller, channel, noted = _id_engine(tmp_path, "echo")
    try:
        assert controller.do_command("protocol_version") == "2"
        with pytest.raises(GtpTimeout):
            controller.do_command("slow", timeout=0.2)
        time.sleep(1.2)   # when it would have answered, had it not been killed
        with pytest.raises(GtpTransportError) as info:
            controller.do_command("name")
        assert str(info.value) == ("error sending 'name' to player x: channel is unusable: "
                                   "timeout (0.2s) waiting for response to 'slow' from player x")
        assert not channel.is_running()
        assert open(noted).read() == "1 protocol_version\n2 slow\n"
    finally:
        controller.abandon()


def test_closed_channel_error_message():
    channel = ScriptedChannel([("play b C3", GtpChannelClosed(
        "engine has closed the response channel"))])
    controller = GtpController(channel, "player bad")
    with pytest.raises(GtpChannelClosed) as info:
        controller.do_command("play", "b", "C3")
    assert str(info.value) == ("error reading response to 'play b C3' from player bad: "
                               "engine has closed the response channel")


def test_aliases_apply_to_commands_and_known_command():
    channel = ScriptedChannel([("cputime", (False, "1.5")),
                               ("known_command cputime", (False, "true"))])
    controller = GtpController(channel, "p", aliases={"gomill-cpu_time": "cputime"})
    assert controller.do_command("gomill-cpu_time") == "1.5"
    assert controller.known_command("gomill-cpu_time")
    channel.assert_done()


def test_known_command_is_asked_once_and_failure_means_unknown():
    channel = ScriptedChannel([("known_command foo", (False, "false")),
                               ("known_command bar", (True, "no idea"))])
    controller = GtpController(channel, "p")
    assert not controller.known_command("foo")
    assert not controller.known_command("foo")
    assert not controller.known_command("bar")
    channel.assert_done()


def test_close_sends_quit_and_closes():
    channel = ScriptedChannel([("quit", (False, ""))])
    controller = GtpController(channel, "p")
    controller.close()
    assert channel.closed and controller.is_closed
    assert controller.cpu_time_from_close == 0.5


def test_an_engine_that_exits_in_answer_to_quit_is_closed_without_error():
    # It closes its channel instead of answering: what quit asks is done. Such an engine
    # failed its start-up check ("error reading response to 'quit'").
    channel = ScriptedChannel([("quit", GtpChannelClosed("engine has closed the response channel"))])
    controller = GtpController(channel, "p")
    controller.close()
    assert channel.closed and controller.is_closed
    channel.assert_done()


def test_a_timeout_waiting_for_quit_is_still_an_error():
    channel = ScriptedChannel([("quit", GtpTimeout("no response"))])
    controller = GtpController(channel, "p")
    with pytest.raises(GtpTimeout, match="waiting for response to 'quit' from p"):
        controller.close(quit_timeout=2.0)
    assert channel.closed and controller.is_closed


def test_send_quit_leaves_the_response_to_close():
    channel = ScriptedChannel([("quit", (True, "not now"))])
    controller = GtpController(channel, "p")
    controller.send_quit()
    controller.send_quit()   # sent once
    assert channel.sent == ["quit"] and not channel.closed and channel.timeouts == []
    controller.close(quit_timeout=3.0)   # reads it (a failure response is fine), sends nothing
    assert channel.timeouts == [3.0] and channel.closed and controller.is_closed
    channel.assert_done()


def test_an_error_sending_quit_early_is_raised_by_close():
    class BrokenPipe(ScriptedChannel):
        def send_command(self, command, arguments):
            raise GtpChannelClosed("engine has closed the command channel")

    channel = BrokenPipe([])
    controller = GtpController(channel, "player p")
    controller.send_quit()   # the error waits for close
    with pytest.raises(GtpChannelClosed, match="error sending 'quit' to player p"):
        controller.close()
    assert controller.is_closed and channel.closed and channel.timeouts == []


def test_gtp_log_records_both_directions():
    log = io.StringIO()
    channel = ScriptedChannel([("boardsize 9", (False, "")), ("genmove b", (False, "C3"))])
    controller = GtpController(channel, "p", gtp_log=log, log_label="b")
    controller.do_command("boardsize", "9")
    controller.do_command("genmove", "b")
    assert log.getvalue() == ">> b: boardsize 9\n<< b: = \n>> b: genmove b\n<< b: = C3\n"


def test_clean_response_line():
    assert clean_response_line("= A1\x07\tB2\r") == "= A1 B2"


# The subprocess channel, against real processes.

@pytest.mark.integration
def test_subprocess_channel_parses_responses_with_ids_and_multiple_lines(tmp_path):
    script = tmp_path / "e.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('list'):\n"
        "        sys.stdout.write('=5 a\\nb\\n\\n')\n"
        "    elif line.startswith('quit'):\n"
        "        sys.stdout.write('=\\n\\n'); sys.stdout.flush(); break\n"
        "    else:\n"
        "        sys.stdout.write('? nope\\n\\n')\n"
        "    sys.stdout.flush()\n")
    channel = SubprocessChannel([sys.executable, str(script)])
    channel.send_command("list", ())
    assert channel.get_response(5) == (False, "a\nb")
    channel.send_command("other", ())
    assert channel.get_response(5) == (True, "nope")
    channel.send_command("quit", ())
    assert channel.get_response(5) == (False, "")
    assert channel.close(5) is not None
    assert channel.exit_status == 0


# (what the engine writes, what get_response returns): the usual one-line responses are
# taken whole from the buffer; the others go through the line-by-line reader.
RESPONSES = [
    (b"= C3\n\n", (False, "C3")),
    (b"=12 C3 \n\n", (False, "C3")),
    (b"? illegal move\n\n", (True, "illegal move")),
    (b"=\n\n", (False, "")),
    (b"= C3\r\n\r\n", (False, "C3")),
    (b"= a\tb\n\n", (False, "a b")),
    (b"= x\x01y\n\n", (False, "xy")),
    (b"= a\nb\n\n", (False, "a\nb")),
    (b"\n\n= C3\n\n", (False, "C3")),
    (b"= \xff\n\n", (False, "\ufffd")),
    (b"= C|3\n\n", (False, "C3")),                  # written in parts, '|' between: half a line,
    (b"= D4\n|\n", (False, "D4")),                  # a line without its blank line
    (b"= a\n\n= b\n\n", (False, "a")),             # two responses in one write...
    (b"", (False, "b")),                              # ...the second read from the buffer
]


@pytest.mark.integration
def test_subprocess_channel_reads_every_form_of_response(tmp_path):
    script = tmp_path / "e.py"
    script.write_text(
        "import sys, time\n"
        f"responses = {[data for data, _ in RESPONSES]!r}\n"
        "sys.stdout.buffer.write(b'= 2\\n\\n'); sys.stdout.flush()   # the first response\n"
        "for data in responses:\n"
        "    for i, part in enumerate(data.split(b'|')):\n"
        "        if i:\n"
        "            time.sleep(0.05)\n"
        "        sys.stdout.buffer.write(part); sys.stdout.flush()\n"
        "sys.stdout.buffer.write(b'oops\\n'); sys.stdout.flush()   # then garbage, and no EOF\n"
        "time.sleep(30)\n")
    channel = SubprocessChannel([sys.executable, str(script)])
    try:
        assert channel.get_response(5) == (False, "2")
        for data, expected in RESPONSES:
            assert channel.get_response(5) == expected, data
        with pytest.raises(GtpProtocolError, match="no success/failure indication"):
            channel.get_response(2)   # at once: not a timeout, waiting for more
    finally:
        channel.kill()
        channel.close(1)


@pytest.mark.integration
def test_commands_go_in_one_write_and_their_answers_come_back_in_order():
    # The fake engine reads its commands line by line, as any GTP engine does.
    controller = GtpController(SubprocessChannel(fake_engine_command()), "player x",
                               default_timeout=10)
    def batch(*commands):
        return controller.receive_commands(controller.send_commands(*commands))

    assert batch(("name",), ("protocol_version",)) == ["fake", "2"]
    refused, answered, again = batch(("no_such_command",), ("name",), ("boardsize", "9"))
    assert isinstance(refused, BadGtpResponse) and refused.command == "no_such_command"
    assert (answered, again) == ("fake", "")   # each is read whatever the ones before said
    assert controller.do_command("name") == "fake"   # and nothing is left unread
    controller.close()


def test_every_channel_is_a_channel():
    for channel_class in (SubprocessChannel, ScriptedChannel, EngineChannel, ClosedChannel):
        assert issubclass(channel_class, Channel), channel_class


class MinimalChannel(Channel):
    """A channel with only the methods every channel must have: the rest are Channel's."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def send_command(self, command, arguments):
        self.sent.append(" ".join((command, *arguments)))

    def get_response(self, timeout):
        return False, ""

    def close(self, timeout):
        return None

    def kill(self):
        pass


def test_a_channel_has_defaults_for_what_only_a_subprocess_has():
    channel = MinimalChannel()
    channel.send_commands([("play", ("b", "C3")), ("genmove", ("w",))])
    assert channel.sent == ["play b C3", "genmove w"]   # one at a time, in order
    assert channel.unasked_output() == b"" and channel.is_idle()
    assert channel.process_cpu_time() is None and channel.pid() is None
    channel.set_stderr_sink(print)   # a channel without stderr has nothing to redirect


def test_a_channel_must_have_its_own_transport_methods():
    class NoResponses(Channel):
        def send_command(self, command, arguments):
            pass

        def close(self, timeout):
            return None

        def kill(self):
            pass

    with pytest.raises(TypeError, match="get_response"):
        NoResponses()


@pytest.mark.integration
def test_a_subprocess_channel_names_its_process_and_its_cpu_time():
    channel = SubprocessChannel(fake_engine_command())
    try:
        assert channel.pid() == channel.process.pid
        channel.send_command("name", ())
        assert channel.get_response(10) == (False, "fake")
        assert channel.is_idle() and channel.unasked_output() == b""
        cpu = channel.process_cpu_time()
        assert cpu is not None and cpu >= 0
    finally:
        channel.kill()
        channel.close(1)


def test_commands_through_a_channel_with_the_default_send_commands_are_sent_in_turn():
    channel = ScriptedChannel([("play b C3", (False, "")), ("genmove w", (False, "D4")),
                               ("name", (False, "x"))])
    controller = GtpController(channel, "player x", aliases={"genmove": "genmove"})
    sent = controller.send_commands(("play", "b", "C3"), ("genmove", "w"))
    assert controller.receive_commands(sent) == ["", "D4"]
    assert controller.do_command("name") == "x"
    channel.assert_done()


def test_answers_read_by_a_deadline_wait_no_longer_than_it_leaves():
    channel = ScriptedChannel([("play b C3", (False, "")), ("time_left w 5 0", (False, "")),
                               ("genmove w", (False, "D4"))])
    controller = GtpController(channel, "player x", default_timeout=300)
    sent = controller.send_commands(("play", "b", "C3"), ("time_left", "w", "5", "0"),
                                    ("genmove", "w"))
    before = time.monotonic()
    assert controller.receive_commands(sent, deadline=before + 7) == ["", "", "D4"]
    assert all(0 < timeout <= 7 for timeout in channel.timeouts)
    assert channel.timeouts == sorted(channel.timeouts, reverse=True)


def test_a_deadline_already_past_leaves_no_time_to_wait():
    channel = ScriptedChannel([("genmove w", GtpTimeout("timed out waiting for a response"))])
    controller = GtpController(channel, "player x", default_timeout=300)
    with pytest.raises(GtpTimeout, match="timeout \\(0s\\) waiting for response to 'genmove w'"):
        controller.receive_commands(controller.send_commands(("genmove", "w")),
                                    deadline=time.monotonic() - 1)
    assert channel.timeouts == [0.0] and controller.channel_is_bad


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.integration
def test_timeout_kills_the_engine_and_its_children():
    channel = SubprocessChannel(fake_engine_command("--spawn-child", "--hang-on", "1"))
    controller = GtpController(channel, "player h", default_timeout=5)
    controller.do_command("boardsize", "9")
    pgid = channel.pgid
    start = time.monotonic()
    with pytest.raises(GtpTimeout):
        controller.do_command("genmove", "b", timeout=0.5)
    assert time.monotonic() - start < 4
    channel.close(1)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("engine's process group survived")


@pytest.mark.integration
@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "no pidfd"])
def test_close_waits_for_the_exit_and_kills_an_engine_that_stays(monkeypatch, pidfd):
    import ringmaster.gtp.channel as controller_module
    if not pidfd:   # a system without pidfds: checks with pauses between them
        monkeypatch.setattr(controller_module, "_exit_poller", lambda pid: None)
    controller = GtpController(SubprocessChannel(fake_engine_command()), "player q",
                               default_timeout=10)
    controller.close()
    assert controller.channel.exit_status == 0
    assert controller.cpu_time_from_close is not None
    stays = SubprocessChannel([sys.executable, "-c",
                               "import sys, time; sys.stdin.read(); time.sleep(600)"])
    start = time.monotonic()
    stays.close(0.5)
    assert 0.4 < time.monotonic() - start < 4
    assert stays.exit_status == -signal.SIGKILL


@pytest.mark.integration
def test_engine_exit_is_reported_as_closed_channel():
    channel = SubprocessChannel(fake_engine_command("--crash-on", "1"))
    controller = GtpController(channel, "player c", default_timeout=10)
    controller.do_command("boardsize", "9")
    with pytest.raises(GtpChannelClosed, match="engine has closed the response channel"):
        controller.do_command("genmove", "b")
    channel.close(1)


@pytest.mark.integration
def test_garbage_response_is_a_protocol_error():
    channel = SubprocessChannel(fake_engine_command("--garbage-on", "1"))
    controller = GtpController(channel, "player g", default_timeout=10)
    controller.do_command("boardsize", "9")
    with pytest.raises(GtpProtocolError, match="no success/failure indication"):
        controller.do_command("genmove", "b")
    controller.kill()
    channel.close(1)


@pytest.mark.integration
def test_gmp_engine_is_recognised():
    channel = SubprocessChannel(fake_engine_command("--gmp"))
    with pytest.raises(GtpProtocolError, match="speaking GMP"):
        channel.send_command("protocol_version", ())
        channel.get_response(10)
    channel.kill()
    channel.close(1)


@pytest.mark.integration
def test_missing_executable():
    with pytest.raises(GtpTransportError,
                       match="can't run '/nonexistent/engine': No such file or directory"):
        SubprocessChannel(["/nonexistent/engine"])


@pytest.mark.integration
def test_stderr_flood_is_captured_without_blocking_and_bounded():
    lines = []
    channel = SubprocessChannel(fake_engine_command("--stderr-flood", "200000"),
                                stderr=lines.append)
    controller = GtpController(channel, "player f", default_timeout=20)
    for _ in range(20):   # 4 MB of stderr in all, more than a pipe holds
        controller.do_command("name")
    controller.close()
    total = sum(len(line) for line in lines)
    assert 1_000_000 < total < 2_500_000
    assert lines[-1] == "[further stderr output discarded]"


@pytest.mark.integration
@pytest.mark.parametrize("launcher", ["setpriv", "preexec_fn"])
def test_engine_cannot_outlive_a_killed_parent(tmp_path, launcher):
    # A parent that starts an engine, reports its pid, then is SIGKILLed.
    if launcher == "setpriv" and setpriv_path() is None:
        pytest.fail("no setpriv with --pdeathsig here (util-linux is essential in Debian)")
    pid_file = tmp_path / "pid"
    # sleep ignores its stdin: only the parent-death signal can end it early.
    engine = [shutil.which("sleep"), "60"]
    parent = (
        "import sys, time\n"
        "from ringmaster.gtp import launch\n"
        "from ringmaster.gtp.channel import SubprocessChannel\n"
        + ("launch._setpriv = None\n" if launcher == "preexec_fn" else "")
        + f"assert (launch.launch_plan({engine!r}, None, None)[1] is None)"
        f" == {launcher == 'setpriv'}\n"
        f"c = SubprocessChannel({engine!r})\n"
        f"open({str(pid_file)!r}, 'w').write(str(c.process.pid))\n"
        "time.sleep(60)\n")
    import subprocess
    proc = subprocess.Popen([sys.executable, "-c", parent])
    deadline = time.monotonic() + 20
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    engine_pid = int(pid_file.read_text())
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 5
    while _alive(engine_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(engine_pid)


def test_a_program_not_on_path_names_itself_and_a_games_directory_that_has_it(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    (games / "gnugo").write_text("#!/bin/sh\n")
    (games / "gnugo").chmod(0o755)
    missing = FileNotFoundError(2, "No such file or directory")
    assert engine_start_error(["gnugo", "--mode", "gtp"], missing, (str(games),)) == (
        f"can't run 'gnugo': No such file or directory (it isn't on PATH, but "
        f"{games}/gnugo exists: give the full path)")
    assert engine_start_error(["nothing"], missing, (str(games),)) == (
        "can't run 'nothing': No such file or directory (give the full path, or check PATH)")
    assert engine_start_error(["/opt/x/engine"], missing, (str(games),)) == (
        "can't run '/opt/x/engine': No such file or directory")


def test_a_players_missing_hint_takes_the_place_of_our_advice(tmp_path):
    games = tmp_path / "games"   # (Debian's /usr/games/pachi is a platform game, not the engine)
    games.mkdir()
    (games / "pachi").write_text("#!/bin/sh\n")
    (games / "pachi").chmod(0o755)
    hint = "set PACHI to Pachi's binary, or put pachi on PATH"
    missing = FileNotFoundError(2, "No such file or directory")
    assert engine_start_error(["pachi"], missing, (str(games),), hint=hint) == (
        f"can't run 'pachi': No such file or directory ({hint})")
    refused = PermissionError(13, "Permission denied")
    assert engine_start_error(["/x/pachi"], refused, hint=hint) == (
        f"can't run '/x/pachi': Permission denied ({hint})")


@pytest.mark.integration
def test_closing_never_waits_for_a_descendant_that_holds_the_pipes(tmp_path,
                                                                   no_leftover_processes):
    import threading
    pid_file = tmp_path / "child"
    lines: list[str] = []
    channel = SubprocessChannel(fake_engine_command("--escape-child", str(pid_file)),
                                stderr=lines.append)
    controller = GtpController(channel, "player e", default_timeout=20)
    assert controller.do_command("name") == "fake"
    child = int(pid_file.read_text())
    child_alive_after_close = []

    def close() -> None:
        controller.close()
        child_alive_after_close.append(_alive(child))
    thread = threading.Thread(target=close, daemon=True)
    thread.start()
    thread.join(120)   # a guard only: closing used to wait the child's 600 s
    assert child_alive_after_close == [True]   # close returned while the child still held them
    os.kill(child, signal.SIGKILL)


@pytest.mark.integration
@pytest.mark.parametrize("misbehaviour, commands", [
    (("--exit-at-start",), [("name",)]),                     # no answer at all
    (("--crash-on", "1"), [("name",), ("genmove", "b")]),    # answers, then dies mid-game
])
@pytest.mark.parametrize("pidfds", [True, False])
def test_an_engine_that_exits_is_not_waited_for_while_its_escaped_child_holds_its_output(
        tmp_path, no_leftover_processes, monkeypatch, misbehaviour, commands, pidfds):
    # The engine's escaped child keeps the engine's stdout and stderr open: no end of
    # file comes when the engine exits, and with no timeout only its exit can end the wait.
    # Without pidfds (before Linux 5.3) the exit is looked for between shorter waits.
    import threading

    import ringmaster.gtp.exit_watch as exit_watch
    if not pidfds:
        monkeypatch.delattr(exit_watch.os, "pidfd_open")
    pid_file = tmp_path / "child"
    channel = SubprocessChannel(fake_engine_command("--escape-child", str(pid_file),
                                                    *misbehaviour), stderr=lambda line: None)
    controller = GtpController(channel, "player e", default_timeout=None)
    outcome: list[object] = []

    def converse() -> None:
        try:
            for command, *arguments in commands:
                outcome.append(controller.do_command(command, *arguments))
        except GtpChannelClosed as exc:
            outcome.append(exc)
    thread = threading.Thread(target=converse, daemon=True)
    thread.start()
    thread.join(60)   # a guard only: the wait used to last the child's 600 s
    child = int(pid_file.read_text())
    try:
        assert outcome, "the wait for a response outlasted the engine"
        assert outcome[:-1] == ["fake"][:len(commands) - 1]
        assert isinstance(outcome[-1], GtpChannelClosed)
        assert "engine has exited" in str(outcome[-1])
        assert _alive(child)   # it still held the pipes: no end of file had come
    finally:
        controller.close(0)
        os.kill(child, signal.SIGKILL)


def test_a_huge_failure_response_is_clipped_in_the_message_kept():
    text = "x" * 1_000_000
    controller = GtpController(ScriptedChannel([("boardsize 9", (True, text))]), "player p")
    with pytest.raises(BadGtpResponse) as info:
        controller.do_command("boardsize", "9")
    assert len(str(info.value)) < 700 and str(info.value).endswith("... (1000000 characters)")
    assert info.value.gtp_message == text
