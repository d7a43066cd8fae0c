import ast as __fb_ast__
import operator as __fb_operator__

__fb_cap__ = None
# Module-level code (a table computed once, a loop at the top) runs when
# the solution is defined, outside any call: it draws from ticks of its own.
__fb_ticks__ = iter(range(1, 1 << 62))  # from 1: a tick in a comprehension's `if` must be true
__fb_tick__ = __fb_ticks__.__next__
__fb_ops__ = None
__fb_zip__ = zip


def __fb_counted__(text):
    def tick():
        return __fb_ast__.Call(__fb_ast__.Name("__fb_tick__", __fb_ast__.Load()), [], [])

    def name(n, ctx):
        return __fb_ast__.Name(n, ctx())

    class Ticks(__fb_ast__.NodeTransformer):
        def body(self, node):
            self.generic_visit(node)
            first = node.body[0]
            function = isinstance(node, (__fb_ast__.FunctionDef, __fb_ast__.AsyncFunctionDef))
            doc = isinstance(first, __fb_ast__.Expr) and isinstance(first.value, __fb_ast__.Constant)
            at = 1 if function and doc and isinstance(first.value.value, str) else 0
            node.body[at:at] = [__fb_ast__.Expr(tick())]
            return node

        visit_FunctionDef = visit_AsyncFunctionDef = visit_AsyncFor = visit_While = body

        def visit_For(self, node):
            # The turn's tick is drawn in C beside its item (`zip`), not
            # called at the top of the body: the same count, at less cost
            # (a trial division's loop 1.45 times the uncounted time, not
            # 1.75). Past the cap the loop just ends; the wrapper reads
            # "over" from the exhausted ticks all the same.
            self.generic_visit(node)
            node.iter = __fb_ast__.Call(name("__fb_zip__", __fb_ast__.Load), [node.iter, name("__fb_ticks__", __fb_ast__.Load)], [])
            node.target = __fb_ast__.Tuple([node.target, name("__fb_turn__", __fb_ast__.Store)], __fb_ast__.Store())
            return node

        def visit_comprehension(self, node):
            self.generic_visit(node)
            node.ifs.append(tick())
            return node

        def visit_Lambda(self, node):
            self.generic_visit(node)
            node.body = __fb_ast__.BoolOp(__fb_ast__.And(), [tick(), node.body])
            return node

    tree = Ticks().visit(__fb_ast__.parse(text, "solution.py"))
    return compile(__fb_ast__.fix_missing_locations(tree), "solution.py", "exec")


exec(__fb_counted__(__FB_LITERAL__), globals())


def __FB_WRAPPER__(*__fb_args__):
    global __fb_tick__, __fb_ticks__, __fb_ops__
    __fb_all__ = (1 << 62) if __fb_cap__ is None else __fb_cap__ + 1
    __fb_ticks__ = iter(range(1, __fb_all__ + 1))
    __fb_tick__ = __fb_ticks__.__next__
    try:
        __FB_CHECK__
        __fb_result__ = __FB_CALL__(*__fb_args__)
    except BaseException:
        if __fb_operator__.length_hint(__fb_ticks__) == 0:
            return ["over"]
        raise
    finally:
        __fb_ops__ = __fb_all__ - __fb_operator__.length_hint(__fb_ticks__)
    if __fb_ops__ == __fb_all__:
        return ["over"]
    return ["ok", __fb_result__, __fb_ops__]
