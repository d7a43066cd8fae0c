def valid(xs):
    # The docstring's domain: an even number of coefficients (an odd degree)
    # with a non-zero leading one, which guarantees a real zero. Outside it
    # the canonical solution's doubling search never ends (a constant) or
    # overflows, and each such input cost validation a whole time limit.
    return len(xs) % 2 == 0 and len(xs) > 0 and xs[-1] != 0
