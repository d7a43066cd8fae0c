# The mutant dispatcher of the kill search (kill.rs): one sandbox job holds
# many mutants of the reference, and the sandbox calls each through
# __flowbench_mutant__(k, *args). kill.rs puts the line
# `__fb_mutants__ = [...]` (every mutant's source as a string literal) in
# front of this file.
#
# Mutant k is defined on its first call, in a copy of the globals the job
# started with (the sandbox's prelude), and kept only once its definition
# ran to the end, so a mutant whose module code raises raises on every call.
__fb_base__ = dict(globals())
__fb_defined__ = {}


def __flowbench_mutant__(k, *args):
    ns = __fb_defined__.get(k)
    if ns is None:
        ns = dict(__fb_base__)
        exec(compile(__fb_mutants__[k], "<mutant>", "exec"), ns)
        __fb_defined__[k] = ns
    return ns["__flowbench_reference__"](*args)
