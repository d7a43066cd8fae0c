def valid(n):
    """The documented domain: n > 1 and not a prime."""
    return n > 1 and any(n % d == 0 for d in range(2, int(n ** 0.5) + 1))
