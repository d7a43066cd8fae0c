class Solution:
    def minimumSum(self, n: int, k: int) -> int:
        # Take 1..k//2 (each excludes its partner k - x), then k, k+1, ...
        small = min(n, k // 2)
        total = small * (small + 1) // 2
        rest = n - small
        total += rest * k + rest * (rest - 1) // 2
        return total


def valid(n, k):
    """The statement's domain: positive n and k."""
    return n >= 1 and k >= 1
