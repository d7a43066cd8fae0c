# Driver: answers one request per line of stdin, one JSON line each on
# stdout, for as long as flowbench keeps the process, so a problem's several
# helper calls pay the interpreter's start and the modules' compilation once
# per worker, not once per call. Requests never share state: every
# generator seeds its own random.Random.
#
# The requests and replies (python.rs has the same schema as serde types):
#
#   request  {"helper": NAME, KEY: VALUE, ...}: every key of REQUEST_KEYS[NAME]
#            is there, no other (`checked` says which one is not);
#   reply    {"answer": ANSWER}, {"spec_error": MESSAGE} or {"error": MESSAGE},
#            where ANSWER is
#     generate        {"generated": {"params": [[name, type], ...],
#                       "has_valid": bool, "candidates": [{"category",
#                       "how", "args"[, "widened": why]}, ...],
#                       "outside_spec": int,
#                       "domains": {name: source}, "key": str or null}}
#                     or {"same_as_known": {"key": str}}
#     mutants         {"mutants": [MUTANT, ...]}
#     wrong_programs  {"higher_order": [MUTANT, ...], "alternative": [...]}
#     parse           {}
#     shapes          {"params": [{"name", "given": bool, "shapes": [name,
#                       ...]}], "examples": [[arg, ...]]} (shapes.py)
#   and a MUTANT is {"kind": str, "line": int, "source": str, "diff": str}.
#   A ProblemSpecError (problem.toml at fault) replies its message as a
#   spec_error, without the file, which flowbench names; any other SpecError
#   (the solution or the spec at fault) its message alone as an error; any
#   other exception "the test generator failed: ...".
import json
import sys
import traceback
import warnings

from .main import generate_answer
from .mutants import mutants_answer
from .shapes import shapes_answer
from .signature import ProblemSpecError, SpecError, parse_answer
from .wrong_programs import wrong_programs_answer

# Nothing reads stderr while the process lives (a full pipe would stall
# it): compiling mutants of a solution with, say, "\d" in a string would
# warn once per mutant.
warnings.simplefilter("ignore")

# Each helper's keys: those every request carries, and those it may carry.
REQUEST_KEYS = {
    "generate": ({"solution", "file", "entry_point", "call_style", "seed", "spec", "originals", "mode", "scale",
                  "stdin_format", "statement"}, {"known_key"}),
    "mutants": ({"solution", "file", "skip", "whole_program"}, set()),
    "wrong_programs": ({"solution", "file", "skip", "whole_program", "seed", "cap"}, set()),
    "parse": ({"solution", "file"}, set()),
    "shapes": ({"solution", "file", "entry", "hints"}, set()),
}

ANSWERS = {"generate": generate_answer, "mutants": mutants_answer, "wrong_programs": wrong_programs_answer,
           "parse": parse_answer, "shapes": shapes_answer}


class RequestError(Exception):
    """A request that does not follow REQUEST_KEYS: flowbench and these
    helpers disagree, which is a bug, not the solution's fault."""


def checked(req):
    """`req` itself, once its helper is known and its keys are those
    REQUEST_KEYS gives; a RequestError names the first key missing or not
    expected."""
    if not isinstance(req, dict):
        raise RequestError("a request is a JSON object, not %s" % type(req).__name__)
    helper = req.get("helper")
    if helper not in REQUEST_KEYS:
        raise RequestError("no helper %r (there are: %s)" % (helper, ", ".join(REQUEST_KEYS)))
    required, optional = REQUEST_KEYS[helper]
    for key in sorted(required - set(req)):
        raise RequestError("the %s request has no key `%s`" % (helper, key))
    for key in sorted(set(req) - required - optional - {"helper"}):
        raise RequestError("the %s request has a key `%s` it does not take" % (helper, key))
    return req


def reply(req):
    """The reply to one request (see the schema above)."""
    try:
        req = checked(req)
        return {"answer": ANSWERS[req["helper"]](req)}
    except ProblemSpecError as e:
        return {"spec_error": e.message}
    except SpecError as e:
        return {"error": str(e)}
    except Exception as e:
        last = traceback.format_exception_only(type(e), e)[-1].strip()
        return {"error": "the test generator failed: %s" % last}


def serve():
    for line in sys.stdin:
        sys.stdout.write(json.dumps(reply(json.loads(line)), ensure_ascii=False) + "\n")
        sys.stdout.flush()
