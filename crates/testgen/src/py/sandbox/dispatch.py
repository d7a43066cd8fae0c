# The mutant dispatcher of the kill search (kill.rs): one sandbox job holds
# many mutants of the reference, and the sandbox calls each through
# __flowbench_mutant__(k, *args). kill.rs puts the lines
# `__fb_mutants__ = [...]` (every mutant's source as a string literal) and
# `__fb_job_cap__ = N` (the job's cap on a call's counted operations, or
# None) in front of this file.
#
# Mutant k is defined on its first call, in a copy of the globals the job
# started with (the sandbox's prelude), and kept only once its definition
# ran to the end, so a mutant whose module code raises raises on every call.
# Its counted wrapper then gets the job's cap, so a mutant that runs away
# is stopped by its count, alike on any load, and returns "over" without
# ending the process the other mutants' calls share. As after a timeout
# that ends the process, the mutant's later calls in the job are not run
# ("skipped"): the search runs them again only if it still needs them (a
# mutant that never ends would otherwise spend its cap on every call of
# its step). A mutant that raises, or whose `valid()` refuses the input, is
# skipped alike: the reference answered every test with a value, so either
# is a kill whatever the expected value was, and the search needs no more
# of this step's calls (its other killers there would change nothing: only
# whether a mutant is killed, and by its earliest test, is read).
__fb_base__ = dict(globals())
__fb_defined__ = {}
__fb_over__ = set()


def __flowbench_mutant__(k, *args):
    if k in __fb_over__:
        return ["skipped"]
    ns = __fb_defined__.get(k)
    if ns is None:
        ns = dict(__fb_base__)
        exec(compile(__fb_mutants__[k], "<mutant>", "exec"), ns)
        ns["__fb_cap__"] = __fb_job_cap__
        __fb_defined__[k] = ns
    try:
        answer = ns["__flowbench_reference__"](*args)
    except BaseException:
        __fb_over__.add(k)
        raise
    if answer == ["over"] or answer == ["invalid"]:
        __fb_over__.add(k)
    return answer
