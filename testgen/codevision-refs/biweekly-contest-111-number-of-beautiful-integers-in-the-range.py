from functools import lru_cache


class Solution:
    def numberOfBeautifulIntegers(self, low: int, high: int, k: int) -> int:
        def count_upto(limit: int) -> int:
            # Numbers in [1, limit] with as many even as odd digits and
            # divisible by k (digit DP).
            if limit <= 0:
                return 0
            digits = list(map(int, str(limit)))
            n = len(digits)

            @lru_cache(maxsize=None)
            def go(pos: int, balance: int, rem: int, tight: bool, started: bool) -> int:
                if pos == n:
                    return 1 if started and balance == 0 and rem == 0 else 0
                # Not enough digits left to even out the balance.
                if abs(balance) > n - pos:
                    return 0
                top = digits[pos] if tight else 9
                total = 0
                for d in range(top + 1):
                    nt = tight and d == top
                    if not started and d == 0:
                        total += go(pos + 1, 0, 0, nt, False)
                    else:
                        nb = balance + (1 if d % 2 == 0 else -1)
                        total += go(pos + 1, nb, (rem * 10 + d) % k, nt, True)
                return total

            result = go(0, 0, 0, True, False)
            go.cache_clear()
            return result

        return count_upto(high) - count_upto(low - 1)


def valid(low, high, k):
    """The statement's domain: 0 < low <= high and k > 0."""
    return 0 < low <= high and k > 0
