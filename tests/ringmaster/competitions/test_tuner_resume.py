"""What every tuner refuses on a resume: an opponent or a candidate colour other than its games'."""

from __future__ import annotations

import json
import re

import pytest

from ringmaster.errors import CompetitionError
from ringmaster.settings import Player
from ringmaster.state.state_file import dumps_state
from tests.ringmaster.competitions import test_bayes_tuner, test_ce_tuner, test_mc_tuner, test_spsa_tuner

# Each tuner from control-file settings changed from its tests' own (opponent 'opp'), and the
# colour its candidates play there.
TUNERS = {
    "mc_tuner": (lambda **changes: test_mc_tuner.make_tuner(test_mc_tuner.default_config(**changes)), "w"),
    "ce_tuner": (lambda **changes: test_ce_tuner.make_tuner(test_ce_tuner.default_config(**changes)), "w"),
    "spsa_tuner": (test_spsa_tuner.make_tuner, "b"),
    "bayes_tuner": (test_bayes_tuner.make_tuner, "b"),
}
REMEDY = "; put it back, or start afresh with `ringmaster reset`"


@pytest.mark.parametrize("kind", TUNERS)
@pytest.mark.parametrize("setting", ["opponent", "candidate_colour"])
def test_a_changed_opponent_or_colour_is_refused(kind, setting):
    # The games against opp and against opp2 would be mixed in every candidate's record.
    make_tuner, colour = TUNERS[kind]
    status = json.loads(dumps_state(make_tuner().get_status()))
    assert (status["opponent"], status["candidate_colour"]) == ("opp", colour)
    other = "random" if colour == "b" else "b"
    changes, message = {
        "opponent": ({"players": {"opp2": Player("test")}, "opponent": "opp2"},
                     "'opponent' is opp2 in the control file but was opp for the games so far"),
        "candidate_colour": ({"candidate_colour": other},
                             f"'candidate_colour' is {other} in the control file but was {colour} "
                             "for the games so far"),
    }[setting]
    with pytest.raises(CompetitionError, match="^" + re.escape(message + REMEDY) + "$"):
        make_tuner(**changes).set_status(status)
    del status["opponent"], status["candidate_colour"]   # a state written before they were kept
    make_tuner(**changes).set_status(status)
