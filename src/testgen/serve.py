# Driver (concatenated last): answers one request per line of stdin, one
# JSON line each on stdout, for as long as flowbench keeps the process, so a
# problem's several helper calls pay the interpreter's start and this
# script's compilation once per worker, not once per call. Requests never
# share state: every generator seeds its own random.Random.
import traceback
import warnings

# Nothing reads stderr while the process lives (a full pipe would stall
# it): compiling mutants of a solution with, say, "\d" in a string would
# warn once per mutant.
warnings.simplefilter("ignore")


ANSWERS = {"generate": generate_answer, "mutants": mutants_answer, "wrong_programs": wrong_programs_answer, "parse": parse_answer}


def serve():
    for line in sys.stdin:
        req = json.loads(line)
        try:
            answer = ANSWERS[req.get("helper")](req)
        except Exception as e:
            last = traceback.format_exception_only(type(e), e)[-1].strip()
            answer = {"ok": False, "error": "the test generator failed: %s" % last}
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()


serve()
