def valid(lst):
    """The list holds a prime (the statement's premise)."""
    def prime(n):
        return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))
    return any(prime(x) for x in lst)
