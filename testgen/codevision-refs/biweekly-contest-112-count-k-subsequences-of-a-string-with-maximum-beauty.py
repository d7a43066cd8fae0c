from collections import Counter
from math import comb


class Solution:
    def countKSubsequencesWithMaxBeauty(self, s: str, k: int) -> int:
        MOD = 10 ** 9 + 7
        freqs = sorted(Counter(s).values(), reverse=True)
        if k > len(freqs):
            return 0
        # The best beauty takes the k largest frequencies.  Characters whose
        # frequency is above the k-th largest are forced; among those equal to
        # it, any r of the m are interchangeable.
        threshold = freqs[k - 1]
        result = 1
        forced = 0
        for f in freqs:
            if f > threshold:
                result = result * f % MOD
                forced += 1
        ties = sum(1 for f in freqs if f == threshold)
        r = k - forced
        result = result * (comb(ties, r) % MOD) % MOD * pow(threshold, r, MOD) % MOD
        return result



def valid(s, k):
    """k >= 1 (the statement's 1 <= k <= len(s) over lowercase letters; a
    longer k or other characters leave the question well defined)."""
    return k >= 1
