class Solution:
    def numberOfWays(self, s: str, t: str, k: int) -> int:
        MOD = 10 ** 9 + 7
        n = len(s)
        ss = s + s
        # rotating by r (r = 1..n-1) is one operation; we need the total
        # rotation r_1 + ... + r_k (mod n) to map s onto t
        if len(t) != n or ss.find(t) < 0:
            return 0
        # rotations mapping s onto itself are the multiples of its period d (d | n),
        # so exactly n / d rotations map s onto t
        d = ss.find(s, 1)
        matches = n // d
        zero = 1 if s == t else 0   # whether rotation 0 is among them
        nonzero = matches - zero
        # ways to reach total rotation 0 / a fixed non-zero rotation in k steps
        inv_n = pow(n, MOD - 2, MOD)
        a = pow(n - 1, k, MOD)
        sign = 1 if k % 2 == 0 else MOD - 1
        ways_zero = (a + (n - 1) * sign) * inv_n % MOD
        ways_other = (a - sign) * inv_n % MOD
        return (zero * ways_zero + nonzero * ways_other) % MOD


def valid(s, t, k):
    """The statement's constraints: 2 <= len(s) == len(t) <= 5 * 10^5,
    lowercase letters, 1 <= k <= 10^15."""
    return (
        isinstance(s, str) and isinstance(t, str)
        and 2 <= len(s) <= 5 * 10 ** 5 and len(t) == len(s)
        and all("a" <= c <= "z" for c in s) and all("a" <= c <= "z" for c in t)
        and type(k) is int and 1 <= k <= 10 ** 15
    )
