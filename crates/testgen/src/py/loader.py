# Starts the test generator's helper process (python.rs runs it as
# `python3 -I -S -c <this file>`). The package `flowbench_testgen` comes on
# stdin as one JSON object, module name to source, its byte length on the
# line before; the requests follow on the same stdin, one per line.
#
# The modules are imported from that object, in memory, by a finder on
# `sys.meta_path`, not written to a temporary directory put on `sys.path`:
# nothing is left behind when the process is killed, two processes (or two
# flowbench versions) cannot read each other's files, and `-I -S` keep the
# interpreter blind to whatever else is installed. The finder and loader
# follow the protocols of `importlib.abc.MetaPathFinder` and `Loader` without
# subclassing them: importing `importlib.abc` costs more at every start
# than the whole of this file.
import sys
from importlib.machinery import ModuleSpec

PACKAGE = "flowbench_testgen"


class SourceFinder:
    """Finds and loads `flowbench_testgen` and its modules from `sources`
    (module name, "__init__" for the package itself, to source text)."""

    def __init__(self, sources):
        self.sources = sources

    def find_spec(self, fullname, path=None, target=None):
        if fullname == PACKAGE:
            module, is_package = "__init__", True
        elif fullname.startswith(PACKAGE + ".") and fullname[len(PACKAGE) + 1:] in self.sources:
            module, is_package = fullname[len(PACKAGE) + 1:], False
        else:
            return None
        spec = ModuleSpec(fullname, self, origin="%s/%s.py" % (PACKAGE, module), is_package=is_package)
        if is_package:
            spec.submodule_search_locations = []
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        spec = module.__spec__
        exec(compile(self.get_source(spec.name), spec.origin, "exec"), module.__dict__)

    def get_source(self, fullname):
        """The module's text (tracebacks read their lines through it)."""
        return self.sources["__init__" if fullname == PACKAGE else fullname[len(PACKAGE) + 1:]]


def install(sources):
    """Puts a finder of `sources` first on `sys.meta_path`."""
    sys.meta_path.insert(0, SourceFinder(sources))


def main():
    import json

    length = int(sys.stdin.buffer.readline())
    install(json.loads(sys.stdin.buffer.read(length).decode("utf-8")))
    from flowbench_testgen.serve import serve

    serve()


if __name__ == "__main__":
    main()
